import Testing

/// Suites that start processes or mount file systems live inside this one, so that they run one
/// at a time.
@Suite(.serialized) enum CoreProcesses {}
