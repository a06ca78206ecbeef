// Save this file while `make run` is running: rwatch rebuilds the demo.
print("Hello from the rwatch demo!")
