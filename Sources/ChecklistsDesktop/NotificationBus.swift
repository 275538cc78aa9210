import CDesktopBus

#if canImport(Glibc)
  import Glibc
#endif

/// Why the session bus or its notification server could not be used; `message` is for the user.
public struct NotificationBusError: Error, Equatable, Sendable {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// libdbus-1 is not installed (or not the expected one).
    case library
    /// No session bus, or it refused us.
    case connect
    /// The bus is there but no notification server answered.
    case call
    /// Out of memory.
    case memory
  }

  /// What went wrong.
  public var kind: Kind
  /// The reason, from libdbus or the server.
  public var reason: String

  /// Creates an error.
  public init(_ kind: Kind, reason: String) {
    self.kind = kind
    self.reason = reason
  }

  /// The sentence for the user.
  public var message: String {
    switch kind {
    case .library: "cannot load libdbus-1 (install libdbus-1-3): \(reason)"
    case .connect: "cannot reach the session bus: \(reason)"
    case .call: "no desktop notification server answered: \(reason)"
    case .memory: "out of memory talking to the session bus"
    }
  }
}

/// A signal from the notification server about one of our notifications.
public enum NotificationEvent: Equatable, Sendable {
  /// The user chose an action (its key) on notification `id`.
  case action(id: UInt32, key: String)
  /// Notification `id` went away; `dismissed` when the user closed it (reason 2 of the
  /// specification; not when it expired or was closed by a call).
  case closed(id: UInt32, dismissed: Bool)
  /// The bus connection is gone.
  case disconnected
  /// A notification server started on the bus.
  case serverStarted
}

/// One private connection to the session bus, for the freedesktop notification service
/// (`org.freedesktop.Notifications`).
///
/// The server sends `ActionInvoked` only to the connection that sent the notification, so the
/// reminder service keeps this one connection open and waits on `descriptor` for the signals.
/// libdbus-1 is loaded with dlopen at the first `connect`.
public final class NotificationBus {
  private let handle: OpaquePointer
  /// The descriptor to wait on for reading; then read `nextEvent()` until it is nil.
  public let descriptor: Int32

  private init(handle: OpaquePointer) {
    self.handle = handle
    descriptor = cl_bus_fd(handle)
  }

  deinit { cl_bus_close(handle) }

  /// The session bus's address from an environment: `DBUS_SESSION_BUS_ADDRESS`, else the
  /// usual socket `$XDG_RUNTIME_DIR/bus` when it exists; nil when there is neither.
  public static func sessionAddress(environment: [String: String]) -> String? {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
      return address
    }
    guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
    let socket = runtime + "/bus"
    var status = stat()
    guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return "unix:path=" + socket
  }

  /// Connects to the bus at `address` and subscribes to the notification server's signals.
  public static func connect(address: String) throws(NotificationBusError) -> NotificationBus {
    var handle: OpaquePointer?
    var message = [CChar](repeating: 0, count: 512)
    let status = cl_bus_open(address, &handle, &message, message.count)
    guard status == CL_BUS_OK, let handle else {
      throw NotificationBusError(Self.kind(status), reason: Self.text(message))
    }
    return NotificationBus(handle: handle)
  }

  /// Shows a notification; returns its id. `actions` are (key, label) pairs; `expireTimeout`
  /// in milliseconds, -1 for the server's default, 0 for never.
  public func notify(
    appName: String, summary: String, body: String, actions: [(key: String, label: String)],
    replacing: UInt32 = 0, expireTimeout: Int32 = -1, callTimeoutMilliseconds: Int32 = 10_000
  ) throws(NotificationBusError) -> UInt32 {
    let words = actions.flatMap { [$0.key, $0.label] }
    var id: UInt32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let duplicates = words.map { strdup($0) }
    defer { for pointer in duplicates { free(pointer) } }
    let status = duplicates.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
      cl_bus_notify(
        handle, appName, replacing, summary, body, pointers.baseAddress, pointers.count,
        expireTimeout, callTimeoutMilliseconds, &id, &message, message.count)
    }
    guard status == CL_BUS_OK else {
      throw NotificationBusError(Self.kind(status), reason: Self.text(message))
    }
    return id
  }

  /// The next signal already received, nil when there is none (never waits).
  public func nextEvent() -> NotificationEvent? {
    var event = cl_bus_event()
    do {
      switch Int(cl_bus_next_event(handle, &event)) {
      case Int(CL_BUS_EVENT_ACTION):
        let key = withUnsafeBytes(of: event.action) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .action(id: event.id, key: key)
      case Int(CL_BUS_EVENT_CLOSED):
        return .closed(id: event.id, dismissed: event.reason == 2)
      case Int(CL_BUS_EVENT_DISCONNECTED):
        return .disconnected
      case Int(CL_BUS_EVENT_SERVER_STARTED):
        return .serverStarted
      default:
        return nil
      }
    }
  }

  private static func kind(_ status: Int32) -> NotificationBusError.Kind {
    switch Int(status) {
    case Int(CL_BUS_ERROR_LIBRARY): .library
    case Int(CL_BUS_ERROR_CONNECT): .connect
    case Int(CL_BUS_ERROR_MEMORY): .memory
    default: .call
    }
  }

  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
