# K-Means with numpy, as a student would write it for the AI course.
import numpy as np

rng = np.random.default_rng(7)
centres = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0]])
points = np.concatenate([c + rng.normal(scale=0.5, size=(200, 2)) for c in centres])

k = 3
centroids = points[rng.choice(len(points), size=k, replace=False)]
converged = False
for iteration in range(100):
    distances = np.linalg.norm(points[:, None, :] - centroids[None, :, :], axis=2)
    labels = distances.argmin(axis=1)
    updated = np.array([points[labels == j].mean(axis=0) for j in range(k)])
    if np.allclose(updated, centroids):
        converged = True
        break
    centroids = updated

order = np.lexsort((centroids[:, 1], centroids[:, 0]))
print("centroids:", np.round(centroids[order], 1).tolist())
print("converged:", converged)
