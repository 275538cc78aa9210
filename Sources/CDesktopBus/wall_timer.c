#include <errno.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "CDesktopBus.h"

int cl_wall_timer_create(void) {
  return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int cl_wall_timer_set(int fd, int64_t seconds, int64_t nanoseconds) {
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = (time_t)seconds;
  spec.it_value.tv_nsec = (long)nanoseconds;
  return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int cl_wall_timer_drain(int fd) {
  uint64_t expirations = 0;
  ssize_t count = read(fd, &expirations, sizeof expirations);
  return count < 0 && errno == ECANCELED ? 1 : 0;
}
