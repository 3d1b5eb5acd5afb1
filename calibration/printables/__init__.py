"""True-scale vector PDFs: the calibration grid, figure markers, board anchors and the Tenkey zone mat."""
