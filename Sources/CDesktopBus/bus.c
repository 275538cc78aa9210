#include <dbus/dbus.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CDesktopBus.h"

// The libdbus-1 functions used, resolved once with dlsym.
#define CL_BUS_FUNCTIONS(X)                 \
  X(dbus_error_init)                        \
  X(dbus_error_free)                        \
  X(dbus_error_is_set)                      \
  X(dbus_connection_open_private)           \
  X(dbus_connection_set_exit_on_disconnect) \
  X(dbus_connection_get_unix_fd)            \
  X(dbus_connection_get_is_connected)       \
  X(dbus_connection_send_with_reply_and_block) \
  X(dbus_connection_read_write)             \
  X(dbus_connection_pop_message)            \
  X(dbus_connection_close)                  \
  X(dbus_connection_unref)                  \
  X(dbus_bus_register)                      \
  X(dbus_bus_add_match)                     \
  X(dbus_message_new_method_call)           \
  X(dbus_message_iter_init_append)          \
  X(dbus_message_iter_append_basic)         \
  X(dbus_message_iter_open_container)       \
  X(dbus_message_iter_close_container)      \
  X(dbus_message_get_args)                  \
  X(dbus_message_is_signal)                 \
  X(dbus_message_unref)

#define CL_DECLARE(name) static __typeof__(&name) p_##name;
CL_BUS_FUNCTIONS(CL_DECLARE)
#undef CL_DECLARE

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = CL_BUS_ERROR_LIBRARY;
static char load_message[256];

static void message_set(char *buffer, size_t size, const char *format, ...) {
  if (buffer == NULL || size == 0) return;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(buffer, size, format, arguments);
  va_end(arguments);
}

static void load_library(void) {
  static const char soname[] = "libdbus-1.so.3";
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    message_set(load_message, sizeof load_message, "%s", reason ? reason : soname);
    return;
  }
#define CL_RESOLVE(name)                                                              \
  p_##name = (__typeof__(&name))dlsym(library, #name);                                \
  if (p_##name == NULL) {                                                             \
    message_set(load_message, sizeof load_message, "%s has no %s", soname, #name);    \
    dlclose(library);                                                                 \
    return;                                                                           \
  }
  CL_BUS_FUNCTIONS(CL_RESOLVE)
#undef CL_RESOLVE
  load_status = CL_BUS_OK;
}

struct cl_bus {
  DBusConnection *connection;
};

static const char server_name[] = "org.freedesktop.Notifications";
static const char server_path[] = "/org/freedesktop/Notifications";

/// Copies the error's text into message and frees it.
static void take_error(DBusError *error, const char *fallback, char *message, size_t size) {
  if (p_dbus_error_is_set(error)) {
    message_set(message, size, "%s", error->message ? error->message : fallback);
    p_dbus_error_free(error);
  } else {
    message_set(message, size, "%s", fallback);
  }
}

int cl_bus_open(const char *address, cl_bus **out, char *message, size_t message_size) {
  pthread_once(&load_once, load_library);
  if (load_status != CL_BUS_OK) {
    message_set(message, message_size, "%s", load_message);
    return load_status;
  }
  DBusError error;
  p_dbus_error_init(&error);
  DBusConnection *connection = p_dbus_connection_open_private(address, &error);
  if (connection == NULL) {
    take_error(&error, "cannot connect", message, message_size);
    return CL_BUS_ERROR_CONNECT;
  }
  p_dbus_connection_set_exit_on_disconnect(connection, FALSE);
  if (!p_dbus_bus_register(connection, &error)) {
    take_error(&error, "cannot register on the bus", message, message_size);
    p_dbus_connection_close(connection);
    p_dbus_connection_unref(connection);
    return CL_BUS_ERROR_CONNECT;
  }
  p_dbus_bus_add_match(connection,
                       "type='signal',interface='org.freedesktop.Notifications',"
                       "path='/org/freedesktop/Notifications'",
                       &error);
  if (!p_dbus_error_is_set(&error)) {
    p_dbus_bus_add_match(connection,
                         "type='signal',sender='org.freedesktop.DBus',"
                         "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                         "arg0='org.freedesktop.Notifications'",
                         &error);
  }
  if (p_dbus_error_is_set(&error)) {
    take_error(&error, "cannot subscribe to the notification server", message, message_size);
    p_dbus_connection_close(connection);
    p_dbus_connection_unref(connection);
    return CL_BUS_ERROR_CONNECT;
  }
  cl_bus *bus = malloc(sizeof *bus);
  if (bus == NULL) {
    p_dbus_connection_close(connection);
    p_dbus_connection_unref(connection);
    return CL_BUS_ERROR_MEMORY;
  }
  bus->connection = connection;
  *out = bus;
  return CL_BUS_OK;
}

int cl_bus_fd(cl_bus *bus) {
  int fd = -1;
  if (!p_dbus_connection_get_unix_fd(bus->connection, &fd)) return -1;
  return fd;
}

int cl_bus_notify(cl_bus *bus, const char *app_name, uint32_t replaces_id, const char *summary,
                  const char *body, const char *const *actions, size_t action_count,
                  int32_t expire_timeout, int call_timeout_ms, uint32_t *id, char *message,
                  size_t message_size) {
  DBusMessage *call =
      p_dbus_message_new_method_call(server_name, server_path, server_name, "Notify");
  if (call == NULL) return CL_BUS_ERROR_MEMORY;
  const char *icon = "";
  dbus_uint32_t replaces = replaces_id;
  dbus_int32_t expire = expire_timeout;
  DBusMessageIter arguments, list, hints;
  p_dbus_message_iter_init_append(call, &arguments);
  int built = p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &app_name) &&
              p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT32, &replaces) &&
              p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &icon) &&
              p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &summary) &&
              p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &body) &&
              p_dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "s", &list);
  for (size_t index = 0; built && index < action_count; index++) {
    const char *text = actions[index];
    built = p_dbus_message_iter_append_basic(&list, DBUS_TYPE_STRING, &text);
  }
  built = built && p_dbus_message_iter_close_container(&arguments, &list) &&
          p_dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &hints) &&
          p_dbus_message_iter_close_container(&arguments, &hints) &&
          p_dbus_message_iter_append_basic(&arguments, DBUS_TYPE_INT32, &expire);
  if (!built) {
    p_dbus_message_unref(call);
    return CL_BUS_ERROR_MEMORY;
  }
  DBusError error;
  p_dbus_error_init(&error);
  DBusMessage *reply =
      p_dbus_connection_send_with_reply_and_block(bus->connection, call, call_timeout_ms, &error);
  p_dbus_message_unref(call);
  if (reply == NULL) {
    take_error(&error, "no answer from the notification server", message, message_size);
    return CL_BUS_ERROR_CALL;
  }
  dbus_uint32_t answer = 0;
  int read = p_dbus_message_get_args(reply, &error, DBUS_TYPE_UINT32, &answer, DBUS_TYPE_INVALID);
  p_dbus_message_unref(reply);
  if (!read) {
    take_error(&error, "the notification server's answer has no id", message, message_size);
    return CL_BUS_ERROR_CALL;
  }
  *id = answer;
  return CL_BUS_OK;
}

int cl_bus_next_event(cl_bus *bus, cl_bus_event *event) {
  memset(event, 0, sizeof *event);
  // Reads what the socket has without waiting; messages already queued (received while a
  // call waited for its reply) come first.
  p_dbus_connection_read_write(bus->connection, 0);
  DBusMessage *received;
  while ((received = p_dbus_connection_pop_message(bus->connection)) != NULL) {
    DBusError error;
    p_dbus_error_init(&error);
    if (p_dbus_message_is_signal(received, DBUS_INTERFACE_LOCAL, "Disconnected")) {
      p_dbus_message_unref(received);
      event->kind = CL_BUS_EVENT_DISCONNECTED;
      return event->kind;
    }
    if (p_dbus_message_is_signal(received, "org.freedesktop.DBus", "NameOwnerChanged")) {
      const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
      if (p_dbus_message_get_args(received, &error, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING,
                                  &old_owner, DBUS_TYPE_STRING, &new_owner, DBUS_TYPE_INVALID) &&
          name != NULL && strcmp(name, server_name) == 0 && new_owner != NULL &&
          new_owner[0] != 0) {
        event->kind = CL_BUS_EVENT_SERVER_STARTED;
      }
    } else if (p_dbus_message_is_signal(received, server_name, "ActionInvoked")) {
      dbus_uint32_t id = 0;
      const char *key = NULL;
      if (p_dbus_message_get_args(received, &error, DBUS_TYPE_UINT32, &id, DBUS_TYPE_STRING,
                                  &key, DBUS_TYPE_INVALID)) {
        event->kind = CL_BUS_EVENT_ACTION;
        event->id = id;
        snprintf(event->action, sizeof event->action, "%s", key ? key : "");
      }
    } else if (p_dbus_message_is_signal(received, server_name, "NotificationClosed")) {
      dbus_uint32_t id = 0, reason = 0;
      if (p_dbus_message_get_args(received, &error, DBUS_TYPE_UINT32, &id, DBUS_TYPE_UINT32,
                                  &reason, DBUS_TYPE_INVALID)) {
        event->kind = CL_BUS_EVENT_CLOSED;
        event->id = id;
        event->reason = reason;
      }
    }
    if (p_dbus_error_is_set(&error)) p_dbus_error_free(&error);
    p_dbus_message_unref(received);
    if (event->kind != CL_BUS_EVENT_NONE) return event->kind;
  }
  if (!p_dbus_connection_get_is_connected(bus->connection)) {
    event->kind = CL_BUS_EVENT_DISCONNECTED;
  }
  return event->kind;
}

void cl_bus_close(cl_bus *bus) {
  if (bus == NULL) return;
  p_dbus_connection_close(bus->connection);
  p_dbus_connection_unref(bus->connection);
  free(bus);
}
