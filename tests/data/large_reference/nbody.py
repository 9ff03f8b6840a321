from common import args, out

(steps,) = args((250,))
PI = 3.141592653589793
SOLAR = 4.0 * PI * PI
DAYS = 365.24
PLANETS = [
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
    (4.84143144246472090, -1.16032004402742839, -0.103622044471123109, 0.00166007664274403694,
     0.00769901118419740425, -0.0000690460016972063023, 0.000954791938424326609),
    (8.34336671824457987, 4.12479856412430479, -0.403523417114321381, -0.00276742510726862411,
     0.00499852801234917238, 0.0000230417297573763929, 0.000285885980666130812),
    (12.8943695621391310, -15.1111514016986312, -0.223307578892655734, 0.00296460137564761618,
     0.00237847173959480950, -0.0000296589568540237556, 0.0000436624404335156298),
    (15.3796971148509165, -25.9193146099879641, 0.179258772950371181, 0.00268067772490389322,
     0.00162824170038242295, -0.0000951592254519715870, 0.0000515138902046611451),
]
bodies = [[x, y, z, vx * DAYS, vy * DAYS, vz * DAYS, SOLAR * m] for x, y, z, vx, vy, vz, m in PLANETS]


def sqrt(x):
    g = x if x > 1.0 else 1.0
    for _ in range(25):
        g = (g + x / g) * 0.5
    return g


def offset():
    p = [0.0, 0.0, 0.0]
    for b in bodies:
        for k in range(3):
            p[k] += b[3 + k] * b[6]
    for k in range(3):
        bodies[0][3 + k] = 0.0 - p[k] / SOLAR


def energy():
    e = 0.0
    for i, a in enumerate(bodies):
        s = a[3] * a[3] + a[4] * a[4] + a[5] * a[5]
        e += 0.5 * a[6] * s
        for b in bodies[i + 1:]:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            e -= a[6] * b[6] / sqrt(dx * dx + dy * dy + dz * dz)
    return e


def kinetic():
    e = 0.0
    for a in bodies:
        e += 0.5 * a[6] * (a[3] * a[3] + a[4] * a[4] + a[5] * a[5])
    return e


def advance(dt):
    closest = 1000000.0
    for i, a in enumerate(bodies):
        for b in bodies[i + 1:]:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            d2 = dx * dx + dy * dy + dz * dz
            closest = min(closest, d2)
            mag = dt / (d2 * sqrt(d2))
            wj, wi = b[6] * mag, a[6] * mag
            a[3], a[4], a[5] = a[3] - dx * wj, a[4] - dy * wj, a[5] - dz * wj
            b[3], b[4], b[5] = b[3] + dx * wi, b[4] + dy * wi, b[5] + dz * wi
    for a in bodies:
        a[0], a[1], a[2] = a[0] + dt * a[3], a[1] + dt * a[4], a[2] + dt * a[5]
    return closest


offset()
out(energy(), kinetic())
closest = 1000000.0
for _ in range(steps):
    closest = min(closest, advance(0.01))
out(energy(), kinetic())
out(*bodies[1][:3])
out(sqrt(closest))
