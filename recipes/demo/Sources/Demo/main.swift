import Greeting

print(greeting(for: "rwatch"))
