import CNcursesw
import CTerminalSupport
import ChecklistsCore
import ChecklistsUI
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The main loop: waits on the terminal and the signal pipe, feeds events to the program,
/// carries out its effects and flushes what it draws.
///
/// It sleeps in `poll()` until input, a signal, or the program's next wake-up; it never polls
/// busily. Quit, SIGTERM, SIGINT, SIGHUP and a lost terminal save (when dirty) and return a
/// `TerminalExit`; Ctrl-Z and SIGTSTP save, restore the terminal and stop, then repaint.
public final class TerminalDriver<Program: TerminalProgram> {
  /// The program, as it is now.
  public private(set) var program: Program
  private let terminal: Terminal
  private let hooks: TerminalDriverHooks<Program>
  private let clock: () -> Date
  private var decoder = InputDecoder()
  private var writer = ScreenWriter()
  private var needsRender = true
  private var exitReason: ExitReason?
  private var suspendRequested = false
  private var ignoreNextContinue = false
  private var lastSize: (width: Int, height: Int)?
  private var lastTick: Date?
  /// Results of work done on other threads (decoded photos).
  private let inbox = EventInbox()

  /// How long an unfinished escape sequence or paste may wait for the rest, in milliseconds.
  static var sequenceTimeout: Int32 { 300 }
  /// How often the file is looked at when no watcher tells of changes, in seconds.
  static var fileCheckInterval: TimeInterval { 2 }
  private var lastFileCheck = Date.distantPast
  private var watcher: FileWatcher?
  /// The user chose to quit with a rescue copy after a failed save.
  private var rescueChosen = false
  /// Why the last save at quit failed, for the exit's message.
  private var lastSaveFailure = ""

  /// Where the user had the lists saved instead of the file, for the exit's message.
  private var savedCopy: String?

  /// The terminal's answers to the graphics query, asked when the first photo is wanted.
  private enum GraphicsQuery {
    case notAsked
    /// Asked; the photos wanted meanwhile wait for the answers until `deadline`.
    case waiting(deadline: Date, pending: [PhotoRequest])
    case answered([UInt8])
  }
  private var graphicsQuery = GraphicsQuery.notAsked
  /// How long a terminal may take to answer the graphics query (a remote one takes a round
  /// trip); photos wait as "loading…" meanwhile.
  static var graphicsQueryTimeout: TimeInterval { 1 }

  /// Creates a driver for a started terminal.
  public init(
    program: Program, terminal: Terminal, hooks: TerminalDriverHooks<Program>,
    clock: @escaping () -> Date = Date.init
  ) {
    self.program = program
    self.terminal = terminal
    self.hooks = hooks
    self.clock = clock
  }

  /// Runs until the program quits, a terminating signal arrives or the terminal goes away;
  /// the terminal is restored when it returns.
  public func run() -> TerminalExit {
    watcher = hooks.makeWatcher()
    deliverResize(force: true)
    while true {
      if let reason = exitReason {
        // The kernel retires the file's watch while the last save is written, and the
        // watcher is closed after it: closing it at once would wait for the retirement (the
        // final save compares the file itself, not the watch's events).
        let leaving = watcher
        leaving?.stopWatching()
        watcher = nil
        defer { leaving?.closeInBackground() }
        // Quitting by choice with a save that fails asks what to do instead of exiting.
        if reason == .quit, !rescueChosen, savedCopy == nil, program.isDirty {
          let outcome = hooks.save(program.dataModel)
          dispatch(.saveFinished(outcome))
          if !outcome.succeeded {
            exitReason = nil
            lastSaveFailure = outcome.message
            dispatch(.quitSaveFailed(outcome.message))
            // Staying: the next look at the file (when poll next returns: a key, or within
            // 2 s) watches it again and merges what changed meanwhile.
            continue
          }
        }
        return finish(reason)
      }
      if suspendRequested {
        suspendRequested = false
        suspend()
        continue
      }
      if needsRender { render() }
      waitAndHandleInput()
    }
  }

  // MARK: - Waiting

  private func waitAndHandleInput() {
    var fds = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: terminal.signalFD, events: Int16(POLLIN), revents: 0),
    ]
    fds.append(pollfd(fd: inbox.descriptor, events: Int16(POLLIN), revents: 0))
    if let watcher = watcher {
      fds.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0))
    }
    let count = poll(&fds, nfds_t(fds.count), pollTimeout())
    if count < 0 {
      if errno != EINTR { exitReason = exitReason ?? .terminalGone }
      return
    }
    if fds[1].revents & Int16(POLLIN) != 0 { handleSignals() }
    if fds[2].revents & Int16(POLLIN) != 0 {
      for event in inbox.take() { dispatch(event) }
    }
    if fds.count > 3, fds[3].revents & Int16(POLLIN) != 0, watcher?.drain() == true {
      mergeChangesMadeElsewhere()
    } else if watcher == nil,
      clock().timeIntervalSince(lastFileCheck) >= Self.fileCheckInterval
    {
      mergeChangesMadeElsewhere()
    }
    let ttyEvents = fds[0].revents
    if ttyEvents & Int16(POLLIN) != 0 {
      if ct_bytes_available(STDIN_FILENO) == 0 && ttyEvents & Int16(POLLHUP) == 0 {
        // Readable with nothing to read: end of file.
        exitReason = exitReason ?? .terminalGone
      } else {
        drainInput()
      }
    }
    if ttyEvents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
      exitReason = exitReason ?? .terminalGone
    }
    // Only a sequence left unfinished for the whole timeout is given up: poll also returns for
    // wake-ups and the graphics deadline.
    if count == 0 && decoder.isWaitingForMore && millisecondsSinceInput() >= Self.sequenceTimeout {
      deliver(decoder.expire())
    }
    finishGraphicsQueryIfDue()
    tickIfDue()
  }

  /// Saves the model and tells the program. On a first run the save makes the file's folder,
  /// so the file is watched from then on (before, a change made elsewhere, say while the app was
  /// stopped, showed only at the next look, up to 2 s later).
  private func saveNow() {
    dispatch(.saveFinished(hooks.save(program.dataModel)))
    if watcher == nil { watcher = hooks.makeWatcher() }
  }

  /// Merges changes another program made to the file into the screen.
  private func mergeChangesMadeElsewhere() {
    lastFileCheck = clock()
    // Without a watcher (no folder yet on a first run), try again at each look: any save
    // (Ctrl-S, suspend, focus lost) may have made the folder since.
    if watcher == nil { watcher = hooks.makeWatcher() }
    guard let (lists, message) = hooks.refresh(program.dataModel) else { return }
    if let lists {
      dispatch(.mergedFromElsewhere(lists, message: message))
    } else {
      dispatch(.notice(message))
    }
  }

  /// Milliseconds until something is due: an unfinished sequence, the next wake-up, or (without
  /// a file watcher) the next look at the file.
  private func pollTimeout() -> Int32 {
    var timeout: Int32 = -1
    if decoder.isWaitingForMore {
      timeout = max(Self.sequenceTimeout - millisecondsSinceInput(), 1)
    }
    if case .waiting(let deadline, _) = graphicsQuery {
      let left = PollTimeout.milliseconds(max(deadline.timeIntervalSince(clock()), 0))
      timeout = timeout < 0 ? left : min(timeout, left)
    }
    if watcher == nil {
      let check = Int32(Self.fileCheckInterval * 1000)
      timeout = timeout < 0 ? check : min(timeout, check)
    }
    let now = clock()
    if let wake = program.nextWakeUp(after: now) {
      var milliseconds = PollTimeout.milliseconds(wake.timeIntervalSince(now))
      if milliseconds <= 0, let lastTick, wake <= lastTick {
        milliseconds = 1000  // the program asks for a time already handled: do not spin
      }
      milliseconds = max(milliseconds, 0)
      timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
    }
    return timeout
  }

  private func tickIfDue() {
    let now = clock()
    guard let wake = program.nextWakeUp(after: now), wake <= now else { return }
    if let lastTick, wake <= lastTick { return }
    lastTick = now
    dispatch(.tick)
  }

  /// When the last byte came from the terminal.
  private var lastInput = Date.distantPast

  private func millisecondsSinceInput() -> Int32 {
    Int32(clamping: Int(clock().timeIntervalSince(lastInput) * 1000))
  }

  private func drainInput() {
    lastInput = clock()
    while exitReason == nil {
      switch terminal.read() {
      case .nothing:
        deliver(decoder.endOfInput())
        return
      case .ignored:
        continue
      case .token(let token):
        deliver(decoder.feed(token))
      }
    }
  }

  private func deliver(_ events: [InputEvent]) {
    for event in events {
      if case .resize = event {
        deliverResize(force: false)
      } else {
        dispatch(event)
      }
    }
  }

  // MARK: - Signals

  private func handleSignals() {
    while true {
      let number = ct_read_signal()
      if number == 0 { return }
      switch number {
      case SIGTERM, SIGINT, SIGHUP:
        exitReason = exitReason ?? .signal(Int32(number))
      case SIGTSTP:
        suspendRequested = true
      case SIGCONT:
        if ignoreNextContinue {
          ignoreNextContinue = false
        } else {
          // Stopped and continued from outside: the screen may be anything now.
          terminal.resume()
          writer.invalidate()
          deliverResize(force: true)
        }
      case SIGWINCH:
        terminal.readSize()
        deliverResize(force: false)
      default:
        break
      }
    }
  }

  private func deliverResize(force: Bool) {
    let size = (width: terminal.width, height: terminal.height)
    if !force, let lastSize, lastSize == size { return }
    lastSize = size
    writer.invalidate()
    dispatch(.resize(width: size.width, height: size.height))
  }

  // MARK: - The program

  private func dispatch(_ event: InputEvent) {
    let effects = program.handle(event, now: clock())
    needsRender = true
    perform(effects)
  }

  private func perform(_ effects: [Effect]) {
    for effect in effects {
      switch effect {
      case .save:
        saveNow()
      case .bell:
        terminal.ringBell()
      case .quit:
        exitReason = exitReason ?? .quit
      case .suspend:
        suspendRequested = true
      case .loadPhoto(let request):
        loadPhoto(request)
      case .work(let work):
        let inbox = inbox
        DispatchQueue.global(qos: .userInitiated).async { inbox.post(work.run()) }
      case .logConflict(let line):
        hooks.logConflict(line)
      case .remindersFired(let fired):
        let bytes = hooks.remindersFired(fired, program.dataModel)
        if !bytes.isEmpty { terminal.writeBytes(bytes) }
      case .snoozeReminder(let key, let until):
        hooks.snoozeReminder(key, until, program.dataModel)
      case .quitWithRescueCopy:
        rescueChosen = true
        exitReason = exitReason ?? .quit
      case .saveCopyAndQuit(let path):
        switch hooks.saveCopy(program.dataModel, path) {
        case .success(let written):
          savedCopy = written
          exitReason = exitReason ?? .quit
        case .failure(let error):
          dispatch(.quitSaveFailed(error.message))
        }
      }
    }
  }

  // MARK: - Photos

  /// Decodes a photo on a worker thread; the first one asks the terminal what it shows first.
  private func loadPhoto(_ request: PhotoRequest) {
    switch graphicsQuery {
    case .answered(let answers):
      startLoading(request, answers: answers)
    case .waiting(let deadline, let pending):
      graphicsQuery = .waiting(deadline: deadline, pending: pending + [request])
    case .notAsked:
      guard let query = hooks.graphicsQuery else {
        graphicsQuery = .answered([])
        startLoading(request, answers: [])
        return
      }
      terminal.writeBytes(query)
      decoder.expectsAnswers = true
      graphicsQuery = .waiting(
        deadline: clock().addingTimeInterval(Self.graphicsQueryTimeout), pending: [request])
    }
  }

  /// Starts the photos that waited for the terminal's answers once the device attributes came
  /// (or the time for them ran out).
  private func finishGraphicsQueryIfDue() {
    guard case .waiting(let deadline, let pending) = graphicsQuery,
      decoder.deviceAttributesArrived || clock() >= deadline
    else { return }
    let answers = decoder.terminalAnswers
    graphicsQuery = .answered(answers)
    for request in pending { startLoading(request, answers: answers) }
  }

  private func startLoading(_ request: PhotoRequest, answers: [UInt8]) {
    let load = hooks.loadPhoto
    let inbox = inbox
    DispatchQueue.global(qos: .userInitiated).async {
      inbox.post(.photoLoaded(request, load(request, answers)))
    }
  }

  private func render() {
    var grid = CellGrid(width: terminal.width, height: terminal.height)
    program.render(into: &grid, now: clock())
    writer.flush(grid, to: terminal)
    needsRender = false
  }

  // MARK: - Suspend and exit

  private func suspend() {
    if program.isDirty { saveNow() }
    hooks.persistState(program)
    // Nothing private stays on the terminal while the app is stopped.
    writer.removeImages(from: terminal)
    terminal.suspend()
    ignoreNextContinue = true
    // The whole process group, as Ctrl-Z in a cooked terminal would: a wrapper shell stops
    // with us, so the user's shell sees the job stopped.
    kill(0, SIGSTOP)
    // Running again (SIGCONT). `kill %1` sends SIGTERM and SIGCONT to a stopped job that stays
    // in the background: touching the terminal now would stop us again with SIGTTOU, so take
    // the signals that came meanwhile first, and end without resuming the screen.
    handleSignals()
    if exitReason != nil { return }
    // No SIGWINCH came for a resize made while stopped.
    terminal.resume()
    writer.invalidate()
    deliverResize(force: true)
  }

  private func finish(_ reason: ExitReason) -> TerminalExit {
    if let savedCopy {
      hooks.persistState(program)
      writer.removeImages(from: terminal)
      terminal.stop()
      return TerminalExit(
        status: 0,
        message: "your lists were saved to \(savedCopy) (the file itself could not be "
          + "saved)")
    }
    var failure: SaveOutcome?
    if program.isDirty && !rescueChosen {
      let outcome = hooks.save(program.dataModel)
      if !outcome.succeeded { failure = outcome }
    } else if program.isDirty {
      failure = SaveOutcome(succeeded: false, message: lastSaveFailure)
    }
    hooks.persistState(program)
    let rescuedPath = failure.flatMap { _ in hooks.rescue(program.dataModel) }
    writer.removeImages(from: terminal)
    terminal.stop()
    guard let failure else { return TerminalExit(status: 0, message: nil) }
    let reasonText = failure.message.isEmpty ? "" : " (\(failure.message))"
    if let rescuedPath {
      return TerminalExit(
        status: 1,
        message: "could not save\(reasonText); your data is in \(rescuedPath)")
    }
    return TerminalExit(
      status: 1, message: "could not save\(reasonText), and no rescue copy was written")
  }
}
