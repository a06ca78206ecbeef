/// Collects the signals written in a `Recipe` body. Each one becomes a
/// pipeline; `if`, `if/else` and `for` work as in any result builder.
@resultBuilder
public enum PipelineBuilder {
    public static func buildExpression<Value>(_ signal: Signal<Value>) -> [Pipeline] {
        [Pipeline(signal)]
    }

    public static func buildExpression(_ pipeline: Pipeline) -> [Pipeline] {
        [pipeline]
    }

    public static func buildBlock(_ parts: [Pipeline]...) -> [Pipeline] {
        parts.flatMap { $0 }
    }

    public static func buildOptional(_ part: [Pipeline]?) -> [Pipeline] {
        part ?? []
    }

    public static func buildEither(first part: [Pipeline]) -> [Pipeline] {
        part
    }

    public static func buildEither(second part: [Pipeline]) -> [Pipeline] {
        part
    }

    public static func buildArray(_ parts: [[Pipeline]]) -> [Pipeline] {
        parts.flatMap { $0 }
    }
}
