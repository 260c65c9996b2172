# Pure-Python K-Means for the runner benchmark: 10,000 2-D points, k = 5,
# 20 iterations, no numpy. The same file runs in Viva's worker, in
# `python3 FILE` and in Pyodide; it reports its own time so the three are
# compared on the computation alone.
import random
import time

random.seed(2024)
centres = [(0, 0), (8, 1), (2, 9), (-6, 5), (-3, -7)]
points = [(cx + random.gauss(0, 1.5), cy + random.gauss(0, 1.5))
          for i in range(10_000)
          for cx, cy in [centres[i % 5]]]

started = time.perf_counter()
started_cpu = time.thread_time()
k = 5
centroids = points[:k]
for iteration in range(20):
    sums = [[0.0, 0.0, 0] for _ in range(k)]
    for x, y in points:
        best = 0
        best_d = float("inf")
        for j, (cx, cy) in enumerate(centroids):
            d = (x - cx) ** 2 + (y - cy) ** 2
            if d < best_d:
                best, best_d = j, d
        s = sums[best]
        s[0] += x
        s[1] += y
        s[2] += 1
    centroids = [(s[0] / s[2], s[1] / s[2]) if s[2] else centroids[j]
                 for j, s in enumerate(sums)]
elapsed = (time.perf_counter() - started) * 1000
# CPU time of this thread: what a loaded machine disturbs least.
cpu = (time.thread_time() - started_cpu) * 1000

print("centroids:", sorted((round(x, 1), round(y, 1)) for x, y in centroids))
print(f"elapsed_ms: {elapsed:.1f}")
print(f"cpu_ms: {cpu:.1f}")
