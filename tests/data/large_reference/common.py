"""Bril's semantics where Python's differ: 64-bit wrapping integers,
division truncating toward zero, and brili's way of printing values."""

import math
import sys
from decimal import Decimal, ROUND_HALF_UP


def wrap(x):
    """x as a signed 64-bit integer."""
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def div(a, b):
    """Bril's `div`: truncates toward zero."""
    q = abs(a) // abs(b)
    return wrap(q if (a >= 0) == (b >= 0) else -q)


def rem(a, b):
    """a - b * div(a, b), as Bril programs compute a remainder."""
    return wrap(a - b * div(a, b))


def fmt_float(x):
    """JavaScript's toFixed(17) (toExponential(17) for huge or tiny values)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.00000000000000000" if math.copysign(1, x) < 0 else "0.00000000000000000"
    magnitude = math.log10(abs(x))
    if -10 < magnitude < 10:
        return format(Decimal(x).quantize(Decimal(10) ** -17, rounding=ROUND_HALF_UP), "f")
    exp = math.floor(magnitude)
    mantissa = (Decimal(x) / Decimal(10) ** exp).quantize(Decimal(10) ** -17, rounding=ROUND_HALF_UP)
    if abs(mantissa) >= 10:
        exp += 1
        mantissa = (Decimal(x) / Decimal(10) ** exp).quantize(Decimal(10) ** -17, rounding=ROUND_HALF_UP)
    return f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp)}"


def show(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return fmt_float(v)
    return str(v)


def out(*values):
    """Bril's `print`: values separated by spaces."""
    sys.stdout.write(" ".join(show(v) for v in values) + "\n")


class Lcg:
    """The programs' generator: s = (s * 1103515245 + 12345) mod 2^31."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state * 1103515245 + 12345) % 2147483648
        return self.state

    def below(self, bound):
        """A number in 0..bound from the high bits (the low ones cycle fast)."""
        return (self.next() // 65536) % bound


def args(defaults):
    """The program's arguments: the command line's, or the defaults."""
    given = sys.argv[1:]
    return [type(d)(a) for d, a in zip(defaults, given)] if given else list(defaults)
