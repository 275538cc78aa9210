#ifndef CHECKLISTS_CTERMINALSUPPORT_H
#define CHECKLISTS_CTERMINALSUPPORT_H

/// Creates the non-blocking self-pipe (once) and installs handlers for SIGTERM, SIGINT, SIGHUP,
/// SIGTSTP, SIGCONT and SIGWINCH that only write the signal number (one byte) to it.
/// Returns the pipe's read end, or -1 with errno set.
int ct_install_signal_handlers(void);

/// Reads one pending signal number from the pipe: the number, 0 when none is pending.
int ct_read_signal(void);

/// Saves the terminal modes of `fd` for `ct_restore_termios` and the crash handler. 0 on success.
int ct_save_termios(int fd);

/// Puts the saved terminal modes back (async-signal-safe). 0 on success, -1 when none were saved.
int ct_restore_termios(void);

/// Marks whether the full-screen modes are on, so the crash handler knows to undo them.
void ct_set_screen_active(int active);

/// Installs the crash handler for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT and SIGFPE: it restores
/// the saved modes, resets the screen when it is active, then re-raises with the default action.
void ct_install_crash_handlers(void);

/// The window size of `fd` from TIOCGWINSZ. 0 on success, -1 on failure.
int ct_window_size(int fd, int *rows, int *columns);

/// How many bytes are waiting to be read on `fd` (FIONREAD), -1 on failure.
int ct_bytes_available(int fd);

/// Turns off software flow control (IXON) on `fd` so Ctrl-S arrives as a key. 0 on success.
int ct_disable_flow_control(int fd);

#endif
