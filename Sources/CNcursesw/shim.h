#ifndef CHECKLISTS_CNCURSESW_SHIM_H
#define CHECKLISTS_CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* Wrappers for the curses macros and globals Swift cannot import. */

static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }

static inline int cn_getmaxy(WINDOW *window) { int y, x; getmaxyx(window, y, x); (void)x; return y; }
static inline int cn_getmaxx(WINDOW *window) { int y, x; getmaxyx(window, y, x); (void)y; return x; }

static inline int cn_key_f(int n) { return KEY_F(n); }


static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline FILE *cn_stdout(void) { return stdout; }

static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }
static inline const char *cn_codeset(void) { return nl_langinfo(CODESET); }

/* tigetstr returns (char *)-1 for a name that is not a string capability. */
static inline int cn_has_string_capability(const char *name) {
  char *value = tigetstr(name);
  return value != NULL && value != (char *)-1 && value[0] != '\0';
}

#endif
