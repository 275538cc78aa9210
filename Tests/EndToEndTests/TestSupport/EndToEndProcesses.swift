import Testing

/// Every suite that starts the built binary, tmux or other processes lives inside this one, so
/// that they run one at a time (Swift Testing runs suites in parallel; the machine has 2 cores).
@Suite(.serialized) enum EndToEndProcesses {}
