r"""Dot products summed in a fixed order, for the reference classes.

.. math::

    \mathbf a \cdot \mathbf b = \sum_{i=1}^{d} a_i b_i

Floating-point addition is not associative, so the last bits of a sum depend on the order of
its terms.  ``np.dot``, ``@`` and ``np.sum`` choose that order themselves (OpenBLAS picks a
kernel for the CPU it runs on; numpy's own loops use the CPU's vector width), so their results
change from one machine to the next.  The compiled loops of the fast paths add in one written
order; the reference classes call :func:`dot` and :func:`matvec` below, which add the same
products in that same order, so the two paths agree bit for bit on any CPU.

Two orders occur:

* ``lanes=4`` (the default): four running sums, :math:`s_k = \sum_{i \equiv k \ (4)} a_i b_i`
  over the complete blocks of four, the remaining products into :math:`s_0`, then
  :math:`(s_0 + s_1) + (s_2 + s_3)`.  This is :func:`olcore.linear._engine.dot` (and its
  ``dot_row``, ``dot2``, ``dot2_row``), used by the Perceptron, Winnow, OGD, PA, ALMA and the
  second-order Perceptron.
* ``lanes=1``: one running sum, left to right, :math:`(\dots((0 + a_1 b_1) + a_2 b_2) + \dots)`:
  the plain ``for`` loops (Widrow-Hoff's score, ALMA's :math:`\|\mathbf w'\|^2`, the rows of
  the second-order Perceptron's :math:`A^{-1}\mathbf x`).

Each product and each addition is one IEEE 754 double operation on Python floats, as in the
compiled loop (numba compiles with ``fastmath`` off there, so it neither reorders nor fuses them).
"""

from __future__ import annotations

import numpy as np

__all__ = ["dot", "matvec"]


def dot(a, b, lanes: int = 4) -> float:
    r""":math:`\mathbf a \cdot \mathbf b`, summed in the order of the compiled loops (``lanes`` 4 or 1).

    >>> dot([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    32.0
    >>> a = [1e16, 1.0, 1.0, 1.0, -1e16]
    >>> dot(a, [1.0] * 5)               # s0 = 1e16 - 1e16, s1 = s2 = s3 = 1: (0 + 1) + (1 + 1)
    3.0
    >>> dot(a, [1.0] * 5, lanes=1)      # left to right: each 1 is lost against 1e16
    0.0
    """
    a = np.asarray(a, dtype=float).tolist()
    b = np.asarray(b, dtype=float).tolist()
    if len(a) != len(b):
        raise ValueError(f"dot: lengths {len(a)} and {len(b)} differ")
    if lanes == 1:
        s = 0.0
        for ai, bi in zip(a, b):
            s += ai * bi
        return s
    if lanes != 4:
        raise ValueError(f"dot: lanes must be 1 or 4, not {lanes!r}")
    n = len(a)
    s0 = s1 = s2 = s3 = 0.0
    i = 0
    while i + 4 <= n:
        s0 += a[i] * b[i]
        s1 += a[i + 1] * b[i + 1]
        s2 += a[i + 2] * b[i + 2]
        s3 += a[i + 3] * b[i + 3]
        i += 4
    while i < n:
        s0 += a[i] * b[i]
        i += 1
    return (s0 + s1) + (s2 + s3)


def matvec(A, x) -> np.ndarray:
    r""":math:`A\mathbf x`, each row's sum :math:`\sum_j A_{ij} x_j` left to right (``lanes=1``).

    >>> matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, -1.0]).tolist()
    [-1.0, -1.0]
    """
    return np.array([dot(row, x, lanes=1) for row in np.asarray(A, dtype=float)], dtype=float)
