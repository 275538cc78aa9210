import Testing

/// The scripting commands run in this process (`CommandLineInterface.run` with captured
/// streams): parsing, messages, exit statuses and the file they leave. What only a separate
/// process shows (terminal detection, locks between processes, signals) stays in EndToEndTests.
@Suite enum CLITests {}
