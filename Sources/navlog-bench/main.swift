print("navlog-bench: nothing yet")
