import Greeting
import Testing

@Test func greetsByName() {
    #expect(greeting(for: "rwatch") == "Hello, rwatch!")
}
