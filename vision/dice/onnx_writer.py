"""Write a small multilayer perceptron, or a small convolutional network, as an ONNX file that ``cv2.dnn`` runs,
with no ONNX package needed.

ONNX files are protocol buffers; the few messages a Gemm–Relu–Gemm–Softmax network needs (and Conv, MaxPool,
Flatten before it) are encoded here field by field (numbers from onnx.proto), so the model is written with numpy
alone, whatever it was trained with.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

FLOAT = 1  # TensorProto.DataType.FLOAT
OPSET = 13
IR_VERSION = 7
INTS = 7  # AttributeProto.AttributeType.INTS


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


def _ints(name: str, values: tuple[int, ...]) -> bytes:
    """An attribute holding a list of integers (AttributeProto: name 1, ints 8, type 20 = INTS)."""
    return _str(1, name) + b"".join(_int(8, v) for v in values) + _int(20, INTS)


def _node(op: str, inputs: list[str], outputs: list[str], name: str, attributes: tuple[bytes, ...] = ()) -> bytes:
    return (b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs) + _str(3, name)
            + _str(4, op) + b"".join(_bytes(5, a) for a in attributes))


Layers = list[tuple[NDArray[np.float32], NDArray[np.float32]]]


def _model(nodes: list[bytes], inits: list[bytes], input_name: str, input_shape: tuple[int, ...], output_name: str,
           classes: int) -> bytes:
    graph = (b"".join(_bytes(1, n) for n in nodes) + _str(2, "net") + b"".join(_bytes(5, t) for t in inits)
             + _bytes(11, _value_info(input_name, input_shape)) + _bytes(12, _value_info(output_name, (1, classes))))
    opset = _str(1, "") + _int(2, OPSET)
    return _int(1, IR_VERSION) + _str(2, "hexa-table-companion") + _bytes(7, graph) + _bytes(8, opset)


def _dense(weights: Layers, current: str, output_name: str, nodes: list[bytes], inits: list[bytes]) -> None:
    """Gemm layers (W: inputs × outputs), ReLU between them, softmax at the end, appended to ``nodes``."""
    for i, (w, b) in enumerate(weights):
        inits += [_tensor(f"W{i}", w), _tensor(f"b{i}", b.reshape(1, -1))]
        out = f"gemm{i}"
        nodes.append(_node("Gemm", [current, f"W{i}", f"b{i}"], [out], f"layer{i}"))
        current = out
        if i < len(weights) - 1:
            nodes.append(_node("Relu", [current], [f"relu{i}"], f"relu{i}"))
            current = f"relu{i}"
    nodes.append(_node("Softmax", [current], [output_name], "softmax"))


def mlp_onnx(weights: Layers, input_name: str = "features", output_name: str = "probabilities") -> bytes:
    """``weights``: per layer W (inputs, outputs) and b (outputs,); ReLU between layers, softmax at the end."""
    nodes: list[bytes] = []
    inits: list[bytes] = []
    _dense(weights, input_name, output_name, nodes, inits)
    return _model(nodes, inits, input_name, (1, int(weights[0][0].shape[0])), output_name,
                  int(weights[-1][0].shape[1]))


def cnn_onnx(convs: Layers, dense: Layers, input_shape: tuple[int, int, int], input_name: str = "crops",
             output_name: str = "probabilities") -> bytes:
    """``convs``: per layer W (outputs, inputs, k, k), odd k, and b (outputs,), each convolution padded to keep
    the size, then ReLU and a 2 × 2 max-pool; then flattened (channel, row, column) into ``dense`` layers as
    :func:`mlp_onnx`'s. ``input_shape``: channels, rows, columns."""
    nodes: list[bytes] = []
    inits: list[bytes] = []
    current = input_name
    for i, (w, b) in enumerate(convs):
        k = int(w.shape[2])
        inits += [_tensor(f"K{i}", w), _tensor(f"c{i}", b)]
        nodes.append(_node("Conv", [current, f"K{i}", f"c{i}"], [f"conv{i}"], f"conv{i}",
                           (_ints("kernel_shape", (k, k)), _ints("pads", (k // 2,) * 4))))
        nodes.append(_node("Relu", [f"conv{i}"], [f"crelu{i}"], f"crelu{i}"))
        nodes.append(_node("MaxPool", [f"crelu{i}"], [f"pool{i}"], f"pool{i}",
                           (_ints("kernel_shape", (2, 2)), _ints("strides", (2, 2)))))
        current = f"pool{i}"
    nodes.append(_node("Flatten", [current], ["flat"], "flatten"))
    _dense(dense, "flat", output_name, nodes, inits)
    return _model(nodes, inits, input_name, (1, *input_shape), output_name, int(dense[-1][0].shape[1]))


def write_mlp(path: str | Path, weights: Layers) -> Path:
    target = Path(path)
    target.write_bytes(mlp_onnx(weights))
    return target


