#define _GNU_SOURCE
#include "CTerminalSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int pipe_fds[2] = {-1, -1};
static struct termios saved_termios;
static int saved_termios_fd = -1;
static volatile sig_atomic_t termios_saved = 0;
static volatile sig_atomic_t screen_active = 0;

static void on_signal(int signal_number) {
  int saved_errno = errno;
  if (pipe_fds[1] >= 0) {
    unsigned char byte = (unsigned char)signal_number;
    /* Non-blocking: when the pipe is full the signal is already pending there. */
    ssize_t ignored = write(pipe_fds[1], &byte, 1);
    (void)ignored;
  }
  errno = saved_errno;
}

static int make_pipe(void) {
  if (pipe_fds[0] >= 0) return 0;
  if (pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) {
    pipe_fds[0] = pipe_fds[1] = -1;
    return -1;
  }
  return 0;
}

int ct_install_signal_handlers(void) {
  if (make_pipe() != 0) return -1;
  static const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH};
  for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(signals[index], &action, NULL) != 0) return -1;
  }
  /* A parent may have started us with signals blocked; we must receive these. */
  sigset_t unblock;
  sigemptyset(&unblock);
  for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
    sigaddset(&unblock, signals[index]);
  }
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
  return pipe_fds[0];
}

int ct_read_signal(void) {
  if (pipe_fds[0] < 0) return 0;
  unsigned char byte = 0;
  ssize_t count;
  do {
    count = read(pipe_fds[0], &byte, 1);
  } while (count < 0 && errno == EINTR);
  return count == 1 ? (int)byte : 0;
}

int ct_save_termios(int fd) {
  if (tcgetattr(fd, &saved_termios) != 0) return -1;
  saved_termios_fd = fd;
  termios_saved = 1;
  return 0;
}

int ct_restore_termios(void) {
  if (!termios_saved) return -1;
  int result;
  do {
    result = tcsetattr(saved_termios_fd, TCSADRAIN, &saved_termios);
  } while (result != 0 && errno == EINTR);
  return result;
}

void ct_set_screen_active(int active) { screen_active = active ? 1 : 0; }

static void write_all(int fd, const char *text, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, text, length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    text += written;
    length -= (size_t)written;
  }
}

/* Leaves the alternate screen, shows the cursor, turns off mouse, paste and focus reporting. */
static void write_terminal_reset(int fd) {
  static const char reset[] =
      "\033[?1000l\033[?1002l\033[?1003l\033[?1006l" /* mouse reporting off */
      "\033[?2004l"                                  /* bracketed paste off */
      "\033[?1004l"                                  /* focus reporting off */
      "\033[0m\033[?25h"                             /* plain text, cursor shown */
      "\033[?1049l"                                  /* leave the alternate screen */
      "\r\n";
  write_all(fd, reset, sizeof reset - 1);
}

static void on_crash(int signal_number) {
  int active = screen_active;
  screen_active = 0;
  if (termios_saved) {
    /* TCSANOW: output may be stuck behind a full tty buffer in a crash. */
    tcsetattr(saved_termios_fd, TCSANOW, &saved_termios);
  }
  if (active) write_terminal_reset(STDOUT_FILENO);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, NULL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
  raise(signal_number);
}

void ct_install_crash_handlers(void) {
  /* An alternate stack so a stack overflow still reaches the handler. */
  static _Alignas(16) char alternate_stack[1 << 16];
  stack_t stack;
  memset(&stack, 0, sizeof stack);
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, NULL);
  static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
  for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_crash;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigaction(signals[index], &action, NULL);
  }
  sigset_t unblock;
  sigemptyset(&unblock);
  for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
    sigaddset(&unblock, signals[index]);
  }
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

int ct_window_size(int fd, int *rows, int *columns) {
  struct winsize size;
  memset(&size, 0, sizeof size);
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
  *rows = size.ws_row;
  *columns = size.ws_col;
  return 0;
}

int ct_bytes_available(int fd) {
  int count = 0;
  if (ioctl(fd, FIONREAD, &count) != 0) return -1;
  return count;
}

int ct_disable_flow_control(int fd) {
  struct termios modes;
  if (tcgetattr(fd, &modes) != 0) return -1;
  modes.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
  return tcsetattr(fd, TCSADRAIN, &modes);
}
