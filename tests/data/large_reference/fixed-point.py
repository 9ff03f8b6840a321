from common import args, div, out

w, h, limit = args((32, 20, 40))
ONE = 65536


def fx_mul(a, b):
    return div(a * b, ONE)


def fx_div(a, b):
    return div(a * ONE, b)


def fx_sqrt(a):
    if a <= 0:
        return 0
    x = max(a, ONE)
    while True:
        nxt = div(x + fx_div(a, x), 2)
        if nxt >= x:
            return x
        x = nxt


def fx_sin(x):
    while x > 205887:
        x -= 411775
    while x < -205887:
        x += 411775
    term = total = x
    for k in range(1, 6):
        term = fx_mul(fx_mul(term, x), x)
        term = -div(term, (2 * k) * (2 * k + 1))
        total += term
    return total


def fsin(x):
    while x > 3.141592653589793:
        x -= 6.283185307179586
    while x < -3.141592653589793:
        x += 6.283185307179586
    term = total = x
    k = 1.0
    while k < 6.0:
        term = term * x * x
        a = k * 2.0
        term = -(term / (a * (a + 1.0)))
        total += term
        k += 1.0
    return total


out(fx_mul(196608, -45875), fx_div(196608, -45875))
worst, sin_sum, cos_sum = 0.0, 0, 0
for x in range(-524288, 524288 + 1, 8192):
    s, c = fx_sin(x), fx_sin(x + 102944)
    sin_sum, cos_sum = sin_sum + s, cos_sum + c
    fx = float(x) / 65536.0
    worst = max(worst, abs(float(s) / 65536.0 - fsin(fx)) * 65536.0)
    worst = max(worst, abs(float(c) / 65536.0 - fsin(fx + 1.5707963267948966)) * 65536.0)
out(sin_sum, cos_sum, worst)
roots = [fx_sqrt(k * ONE) for k in range(1, 101)]
out(sum(roots), sum(abs(k * ONE - fx_mul(r, r)) for k, r in zip(range(1, 101), roots)))



def fx_exp(x):
    term = total = ONE
    for k in range(1, 13):
        term = div(fx_mul(term, x), k)
        total += term
    return total


err = 0
for k in range(1, 9):
    a = fx_exp(k * 16384)
    err += abs(fx_mul(a, fx_exp(-k * 16384)) - ONE)
out(a, err)


def mandel(fixed):
    total = inside = 0
    for py in range(h):
        ci = div(py * 131072, h) - 65536 if fixed else float(py) * 2.0 / float(h) + -1.0
        for px in range(w):
            cr = div(px * 196608, w) - 131072 if fixed else float(px) * 3.0 / float(w) + -2.0
            zr = zi = 0
            n = 0
            while n < limit:
                zr2 = fx_mul(zr, zr) if fixed else zr * zr
                zi2 = fx_mul(zi, zi) if fixed else zi * zi
                if zr2 + zi2 > (262144 if fixed else 4.0):
                    break
                zrzi = fx_mul(zr, zi) if fixed else zr * zi
                zi = zrzi + zrzi + ci
                zr = zr2 - zi2 + cr
                n += 1
            else:
                inside += 1
            total += n
    out(inside)
    return total


fixed = mandel(True)
floating = mandel(False)
out(fixed, floating)
