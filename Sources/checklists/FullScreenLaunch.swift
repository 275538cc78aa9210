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
    let pictures = AppPictures(environment: environment, config: config, library: photos.library)
    var options = AppOptions(
      asciiGlyphs: wantsASCII(environment), bellEnabled: (environment["NO_BELL"] ?? "").isEmpty,
      keys: keys, photos: AppPhotos.access(session: photos, environment: environment),
      photoColors: pictures.colors)
    // For tests: a short snooze (undocumented, as for the reminder service).
    if let seconds = environment["CHECKLISTS_SNOOZE_SECONDS"].flatMap(Double.init), seconds > 0 {
      options.snoozeSeconds = seconds
    }
    let dataFile = AppDataFile(store: store, photos: photos, sync: sync)
    let state = StateFileWriter(store: store, loaded: load.state)
    let reminders = AppReminders(store: store, loaded: load.state, environment: environment)
    let hooks = TerminalDriverHooks<ChecklistsApp>(
      save: { dataFile.save($0) },
      rescue: { model in try? store.writeRescueCopy(model) },
      persistState: { app in
        state.rememberApp(
          openList: app.checklistIndex, in: app.dataModel, sortByDue: app.sortByDue.sorted(),
          openView: app.openView)
      },
      saveCopy: { model, path in
        do throws(StoreError) {
          return .success(try store.writeCopy(model, to: path))
        } catch {
          return .failure(error)
        }
      },
      refresh: { dataFile.refresh($0) },
      makeWatcher: { dataFile.makeWatcher() },
      loadPhoto: { pictures.load($0, answers: $1) },
      graphicsQuery: pictures.query,
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
        [ConfigProblem.statusLine(for: configProblems), pictures.problem]
        + load.warnings.map { Optional($0) } + [sync?.takeMessage()]
      let line = notices.compactMap { $0 }.joined(separator: "; ")
      if !line.isEmpty { _ = app.handle(.notice(line), now: now) }
      return app
    }
    // The screen is gone: say where the lists went when the file was not simply saved.
    if status == 0, let message = dataFile.exitNotice { printError(message) }
    // After the final save, the copies nothing uses any more go (the data file is read again
    // under its lock; after a failed save nothing is removed).
    photos.end(sweep: status == 0, knownReferences: [])
    store.close()
    // The process ends here, with the loaded and the last saved lists (which share their items
    // with the app's) still alive: freeing 100,000 items one by one first would only add
    // milliseconds to every quit.
    // The lists are not in the data file when the last save went to a conflict copy: 1, as
    // for a failed save (the message above says where they are).
    let exitStatus = status == 0 && dataFile.inConflictCopy ? 1 : status
    withExtendedLifetime((load, store)) { exit(exitStatus) }
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
