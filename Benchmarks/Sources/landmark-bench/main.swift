import LandmarkNear
print("landmark-bench: not built yet")
