import Testing

/// The second lane of process tests, beside `EndToEndProcesses`: suites that start the built
/// CLI, real servers (Radicale with vdirsyncer and todoman, a session bus with dunst) and at most
/// one app in tmux at a time. Each lane runs its suites one at a time, so the machine's two cores
/// run one process test each; the lanes share nothing (private sandboxes, free ports, private
/// tmux sockets and buses).
@Suite(.serialized) enum ServerAndCLIProcesses {}
