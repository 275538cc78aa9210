import ChecklistsCLI
import ChecklistsCore
import ChecklistsTerminal
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the store, the UI state machine and the terminal for a full-screen session.
enum FullScreenLaunch {
  /// Loads the file (errors go to stderr before any screen), runs the app and exits with its
  /// status.
  static func run(arguments: [String], environment: [String: String]) -> Never {
    // Read once: the user's keys and the vdir. A bad line never stops the app; the status line
    // names the first.
    let config = ConfigFile.load(path: ConfigFile.defaultPath(environment: environment))
    let opened: (store: ChecklistsStore, load: LoadResult)
    let sync: AppSync?
    do {
      let location = try DataFileLocation.resolve(
        environment: environment, filePath: CommandLineInterface.fileOption(in: arguments))
      // With a vdir configured, its changes are taken in before the lists are shown.
      sync = AppSync(location: location, environment: environment, config: config)
      sync?.run()
      opened = try ChecklistsStore.open(location: location)
    } catch {
      printError(error.message)
      if let hint = error.restoreHint { printError(hint) }
      exit(1)
    }
    let (store, load) = opened
    let now = Date()
    let (keys, configProblems) = KeyTable.configured(by: config)
    // Every photo the session sees is held until it ends: undo may bring any of them back.
    let photos = PhotoSession(library: PhotoLibrary(dataFile: store.resolvedPath))
    photos.hold(load.model.photoNames)
    let (photoSetting, graphicsQuery, photoColors, photoProblem) = AppPhotos.display(
      environment: environment, config: config)
    let imageIDs = ImageIDs()
    var options = AppOptions(
      asciiGlyphs: wantsASCII(environment), bellEnabled: (environment["NO_BELL"] ?? "").isEmpty,
      keys: keys, photos: AppPhotos.access(session: photos, environment: environment),
      photoColors: photoColors)
    // For tests: a short snooze (undocumented, as for the reminder service).
    if let seconds = environment["CHECKLISTS_SNOOZE_SECONDS"].flatMap(Double.init), seconds > 0 {
      options.snoozeSeconds = seconds
    }
    let thumbnails = ThumbnailCache(environment: environment)
    let lastState = StateSeen(load.state)
    let notice = SaveNotice()
    let reminders = AppReminders(store: store, loaded: load.state, environment: environment)
    let hooks = TerminalDriverHooks<ChecklistsApp>(
      save: { model in
        var outcome = save(model, to: store, notice: notice)
        if let merged = outcome.merged { photos.hold(merged.model.photoNames) }
        guard outcome.succeeded, let sync else { return outcome }
        // What the save wrote goes to the vdir; what the pass brought comes back through the
        // watcher. Problems are told with the save.
        sync.run()
        if let message = sync.takeMessage() { outcome.message += "; " + message }
        return outcome
      },
      rescue: { model in try? store.writeRescueCopy(model) },
      persistState: { app in
        // The app's choices are merged into the state file as it is now, under the data
        // file's lock: what other writers recorded meanwhile (reminders `due --notify` sent, a
        // list renamed from the shell, a higher next item ID) stays.
        var next = lastState.value
        next.remember(openList: app.checklistIndex, in: app.dataModel)
        next.sortByDue = app.sortByDue.sorted()
        next.openView = app.openView
        next.nextItemID = max(next.nextItemID, app.dataModel.nextItemID)
        next.firstTime = false
        // Unchanged state is not written again. A state that holds nothing the data file
        // cannot give back (no reminders sent by `due --notify`, a next item ID that follows
        // the items) is written without fsyncs: two fsyncs saved on most quits.
        let durable = !app.dataModel.listsGiveNextItemID
        if let written = try? store.saveState(next, base: lastState.value, durable: durable) {
          lastState.value = written
        }
      },
      saveCopy: { model, path in
        do throws(StoreError) {
          return .success(try store.writeCopy(model, to: path))
        } catch {
          return .failure(error)
        }
      },
      refresh: { model in
        // The vdir may have changed: a pass writes its changes to the file, merged just below.
        // What the pass has to say is said now, with or without a change to the file (once:
        // a problem that stays is not said again at every look).
        sync?.run()
        let message = sync?.takeMessage(repeating: false)
        guard let refreshed = store.refresh(model) else {
          return message.map { (lists: nil, message: $0) }
        }
        photos.hold(refreshed.merged.model.photoNames)
        return (MergedLists(refreshed), MergedLists.message(for: refreshed, extra: message))
      },
      makeWatcher: {
        let watcher = FileWatcher.open(path: store.resolvedPath)
        sync?.watcher = watcher
        sync?.watchFolders()
        return watcher
      },
      loadPhoto: { [library = photos.library] request, answers in
        let mode = AppPhotos.mode(setting: photoSetting, environment: environment, answers: answers)
        return AppPhotos.picture(
          request, mode: mode, cell: AppPhotos.cellPixelSize(), imageID: imageIDs.next(),
          library: library, cache: thumbnails)
      },
      graphicsQuery: graphicsQuery,
      logConflict: { store.appendToConflictLog($0) },
      remindersFired: { reminders.fired($0, model: $1) },
      snoozeReminder: { reminders.snoozed(key: $0, until: $1, model: $2) }
    )
    let status = FullScreen.run(environment: environment, hooks: hooks) { width, height in
      // On a first run the app itself makes the list "List", so that it is saved on quit.
      var app = ChecklistsApp(
        model: load.isFirstRun ? DataModel(nextItemID: load.model.nextItemID) : load.model,
        checklistIndex: load.state.openListIndex(in: load.model),
        openView: load.state.openView,
        sortByDue: Set(load.state.sortByDue),
        isFirstRun: load.isFirstRun,
        options: options,
        size: (width, height),
        now: now)
      // Everything worth saying at start goes on the status line together: one notice would
      // replace another.
      let notices =
        [ConfigProblem.statusLine(for: configProblems), photoProblem]
        + load.warnings.map { Optional($0) } + [sync?.takeMessage()]
      let line = notices.compactMap { $0 }.joined(separator: "; ")
      if !line.isEmpty { _ = app.handle(.notice(line), now: now) }
      return app
    }
    // The screen is gone: say where the lists went when the file was not simply saved.
    if status == 0, let message = notice.message { printError(message) }
    // After the final save, the copies nothing uses any more go (the data file is read again
    // under its lock; after a failed save nothing is removed).
    photos.end(sweep: status == 0, knownReferences: [])
    store.close()
    // The process ends here, with the loaded and the last saved lists (which share their items
    // with the app's) still alive: freeing 100,000 items one by one first would only add
    // milliseconds to every quit.
    // The lists are not in the data file when the last save went to a conflict copy: 1, as
    // for a failed save (the message above says where they are).
    let exitStatus = status == 0 && notice.inConflictCopy ? 1 : status
    withExtendedLifetime((load, store)) { exit(exitStatus) }
  }

  /// Saves through the store; remembers, for the exit, the line to repeat on stderr (a conflict
  /// copy, a recreated file). The wording is the store's and the UI's.
  private static func save(_ model: DataModel, to store: ChecklistsStore, notice: SaveNotice)
    -> SaveOutcome
  {
    do {
      let result = try store.save(model)
      if result.outcome != .unchanged {
        notice.message = result.exitNotice
        if case .conflictCopy = result.outcome {
          notice.inConflictCopy = true
        } else {
          notice.inConflictCopy = false
        }
      }
      return SaveOutcome(result)
    } catch {
      return SaveOutcome(failure: error)
    }
  }

  /// Terminals that cannot show emoji get the ASCII marks.
  private static func wantsASCII(_ environment: [String: String]) -> Bool {
    if let value = environment["CHECKLISTS_ASCII"], !value.isEmpty { return value != "0" }
    let term = environment["TERM"] ?? ""
    return term == "linux" || term.hasPrefix("vt")
  }

  private static func printError(_ text: String) {
    DescriptorWriter.write(Array((ProgramMessage.line(text) + "\n").utf8), to: STDERR_FILENO)
  }
}

/// The last save's message worth repeating on standard error after the screen is gone.
private final class SaveNotice {
  /// The store's sentence about a conflict copy or a recreated file; nil after a plain save.
  var message: String?
  /// Whether the last save went to a conflict copy: the data file does not hold the lists.
  var inConflictCopy = false
}

/// The state file as the app last read or wrote it: what the next write merges from.
final class StateSeen {
  var value: ChecklistsState

  init(_ value: ChecklistsState) { self.value = value }
}
