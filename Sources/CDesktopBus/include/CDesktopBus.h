// The C side of the reminder service: the session bus through libdbus-1, loaded with dlopen
// the first time a connection is opened (nothing is linked, so no other command pays for it),
// and a wall-clock timer (timerfd) that wakes at a time of day even across a suspend.
#ifndef CDESKTOPBUS_H
#define CDESKTOPBUS_H

#include <stddef.h>
#include <stdint.h>

/// Results.
enum {
  CL_BUS_OK = 0,
  /// libdbus-1 could not be loaded (message names it).
  CL_BUS_ERROR_LIBRARY = 1,
  /// The bus could not be reached (message says why).
  CL_BUS_ERROR_CONNECT = 2,
  /// A call failed: no notification server, or it answered with an error (message says).
  CL_BUS_ERROR_CALL = 3,
  /// Out of memory.
  CL_BUS_ERROR_MEMORY = 4,
};

/// What `cl_bus_next_event` found.
enum {
  CL_BUS_EVENT_NONE = 0,
  /// A notification's action was invoked: `id`, `action`.
  CL_BUS_EVENT_ACTION = 1,
  /// A notification was closed: `id`, `reason` (1 expired, 2 dismissed, 3 closed, 4 other).
  CL_BUS_EVENT_CLOSED = 2,
  /// The connection is gone: open a new one.
  CL_BUS_EVENT_DISCONNECTED = 3,
  /// A notification server took its name on the bus (one started): deliver what waited.
  CL_BUS_EVENT_SERVER_STARTED = 4,
};

/// A signal of the notification server.
typedef struct {
  int kind;
  uint32_t id;
  uint32_t reason;
  /// The action's key, NUL-terminated (cut at 63 bytes).
  char action[64];
} cl_bus_event;

/// One private connection to a bus.
typedef struct cl_bus cl_bus;

/// Opens a private connection to the bus at `address` (a D-Bus address such as
/// `unix:path=/run/user/1000/bus`), registers on it and subscribes to the notification server's
/// signals. On CL_BUS_OK, `*out` must be closed with cl_bus_close.
int cl_bus_open(const char *address, cl_bus **out, char *message, size_t message_size);

/// The descriptor to wait on for reading; then call cl_bus_next_event until it says NONE.
int cl_bus_fd(cl_bus *bus);

/// Calls org.freedesktop.Notifications.Notify and waits up to `call_timeout_ms` for the id.
/// `actions` holds `action_count` strings: key, label, key, label, ...
/// `expire_timeout` is the notification's own (-1: the server's default, 0: never).
int cl_bus_notify(cl_bus *bus, const char *app_name, uint32_t replaces_id, const char *summary,
                  const char *body, const char *const *actions, size_t action_count,
                  int32_t expire_timeout, int call_timeout_ms, uint32_t *id, char *message,
                  size_t message_size);

/// The next signal already received (reads what the descriptor has, never blocks).
int cl_bus_next_event(cl_bus *bus, cl_bus_event *event);

/// Closes the connection and frees it.
void cl_bus_close(cl_bus *bus);

/// A wall-clock timer: a timerfd on CLOCK_REALTIME that fires at an absolute time (also when
/// that time passed during a suspend) and when the system clock is set. -1 on failure.
int cl_wall_timer_create(void);

/// Arms the timer for `seconds`.`nanoseconds` since 1970 (0, 0 disarms it). 0 on success.
int cl_wall_timer_set(int fd, int64_t seconds, int64_t nanoseconds);

/// Reads the timer after it woke: 1 when the clock was set (not the time reached), else 0.
int cl_wall_timer_drain(int fd);

#endif
