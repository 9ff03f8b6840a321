from collections import deque

from common import Lcg, args, out

w, h, percent, seed = args((32, 24, 27, 1))
rng = Lcg(seed)
grid = [rng.below(100) >= percent for _ in range(w * h)]
grid[0] = grid[-1] = True


def neighbours(c, clockwise=False):
    x, y = c % w, c // w
    steps = ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)) if clockwise else ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
    for nx, ny in steps:
        if 0 <= nx < w and 0 <= ny < h and grid[ny * w + nx]:
            yield ny * w + nx


def bfs(dist, start):
    dist[start] = 0
    queue, reached = deque([start]), 1
    while queue:
        c = queue.popleft()
        for n in neighbours(c):
            if dist[n] == -1:
                dist[n] = dist[c] + 1
                queue.append(n)
                reached += 1
    return reached


dist = [-1] * (w * h)
reached = bfs(dist, 0)
far = max(dist)
far_cell = dist.index(far) if far > 0 else 0
out(reached, dist[-1], far, far_cell % w, far_cell // w, sum(dist))
turns, last, cur = 0, None, far_cell
while dist[cur] > 0:
    x, y = cur % w, cur // w
    moves = [(0, x + 1 < w, cur + 1), (1, x > 0, cur - 1), (2, y + 1 < h, cur + w)]
    direction, cur_next = next(((d, c) for d, ok, c in moves if ok and dist[c] == dist[cur] - 1), (3, cur - w))
    if last is not None and direction != last:
        turns += 1
    last, cur = direction, cur_next
dead = sum(1 for c in range(w * h) if grid[c] and len(list(neighbours(c))) == 1)
out(turns, dead)

seen = [-1] * (w * h)
count = largest = 0
for i in range(w * h):
    if grid[i] and seen[i] == -1:
        count += 1
        largest = max(largest, bfs(seen, i))
out(count, largest)

stack, visited, order, total, deepest = [0], [False] * (w * h), 0, 0, 1
while stack:
    c = stack.pop()
    if visited[c]:
        continue
    visited[c] = True
    order += 1
    total = (total + order * c) % 1000003
    stack.extend(n for n in neighbours(c, clockwise=True) if not visited[n])
    deepest = max(deepest, len(stack))
out(order, deepest)
out(count, total)
