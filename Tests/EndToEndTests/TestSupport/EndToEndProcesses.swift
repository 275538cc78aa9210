import Testing

/// The suites that run the app in tmux (and the app's own process tests) live inside this one, so
/// that they run one at a time (Swift Testing runs suites in parallel; the machine has 2 cores).
/// The CLI's and the servers' process suites are the second lane, `ServerAndCLIProcesses`.
@Suite(.serialized) enum EndToEndProcesses {}
