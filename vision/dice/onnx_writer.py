"""Write a small multilayer perceptron as an ONNX file that ``cv2.dnn`` runs, with no ONNX package needed.

ONNX files are protocol buffers; the few messages a Gemm–Relu–Gemm–Softmax network needs are encoded
here field by field (numbers from onnx.proto), so the model can be rebuilt with numpy and OpenCV alone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

FLOAT = 1  # TensorProto.DataType.FLOAT
OPSET = 13
IR_VERSION = 7


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _str(field: int, text: str) -> bytes:
    return _bytes(field, text.encode())


def _tensor(name: str, array: NDArray[np.float32]) -> bytes:
    data = np.ascontiguousarray(array, dtype="<f4")
    return b"".join(_int(1, d) for d in data.shape) + _int(2, FLOAT) + _str(8, name) + _bytes(9, data.tobytes())


def _value_info(name: str, shape: tuple[int, ...]) -> bytes:
    dims = b"".join(_bytes(1, _int(1, d)) for d in shape)
    tensor_type = _int(1, FLOAT) + _bytes(2, dims)
    return _str(1, name) + _bytes(2, _bytes(1, tensor_type))


def _node(op: str, inputs: list[str], outputs: list[str], name: str) -> bytes:
    return (b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs) + _str(3, name)
            + _str(4, op))


def mlp_onnx(weights: list[tuple[NDArray[np.float32], NDArray[np.float32]]], input_name: str = "features",
             output_name: str = "probabilities") -> bytes:
    """``weights``: per layer W (inputs, outputs) and b (outputs,); ReLU between layers, softmax at the end."""
    nodes, inits = [], []
    current = input_name
    for i, (w, b) in enumerate(weights):
        inits += [_tensor(f"W{i}", w), _tensor(f"b{i}", b.reshape(1, -1))]
        out = f"gemm{i}"
        nodes.append(_node("Gemm", [current, f"W{i}", f"b{i}"], [out], f"layer{i}"))
        current = out
        if i < len(weights) - 1:
            nodes.append(_node("Relu", [current], [f"relu{i}"], f"relu{i}"))
            current = f"relu{i}"
    nodes.append(_node("Softmax", [current], [output_name], "softmax"))
    graph = (b"".join(_bytes(1, n) for n in nodes) + _str(2, "mlp") + b"".join(_bytes(5, t) for t in inits)
             + _bytes(11, _value_info(input_name, (1, int(weights[0][0].shape[0]))))
             + _bytes(12, _value_info(output_name, (1, int(weights[-1][0].shape[1])))))
    opset = _str(1, "") + _int(2, OPSET)
    return _int(1, IR_VERSION) + _str(2, "hexa-table-companion") + _bytes(7, graph) + _bytes(8, opset)


def write_mlp(path: str | Path, weights: list[tuple[NDArray[np.float32], NDArray[np.float32]]]) -> Path:
    target = Path(path)
    target.write_bytes(mlp_onnx(weights))
    return target


