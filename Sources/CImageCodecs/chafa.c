// Sixels, iTerm2 and kitty images through chafa (libchafa.so.0, which brings GLib).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <chafa.h>

#include "internal.h"

static void *chafa_handle;
static void *glib_handle;
static __typeof__(chafa_canvas_config_new) *p_chafa_canvas_config_new;
static __typeof__(chafa_canvas_config_unref) *p_chafa_canvas_config_unref;
static __typeof__(chafa_canvas_config_set_geometry) *p_chafa_canvas_config_set_geometry;
static __typeof__(chafa_canvas_config_set_cell_geometry) *p_chafa_canvas_config_set_cell_geometry;
static __typeof__(chafa_canvas_config_set_canvas_mode) *p_chafa_canvas_config_set_canvas_mode;
static __typeof__(chafa_canvas_config_set_pixel_mode) *p_chafa_canvas_config_set_pixel_mode;
static __typeof__(chafa_canvas_new) *p_chafa_canvas_new;
static __typeof__(chafa_canvas_unref) *p_chafa_canvas_unref;
static __typeof__(chafa_canvas_draw_all_pixels) *p_chafa_canvas_draw_all_pixels;
static __typeof__(chafa_canvas_print) *p_chafa_canvas_print;
static __typeof__(chafa_term_db_get_default) *p_chafa_term_db_get_default;
static __typeof__(chafa_term_db_get_fallback_info) *p_chafa_term_db_get_fallback_info;
static __typeof__(chafa_term_info_unref) *p_chafa_term_info_unref;
static __typeof__(g_string_free) *p_g_string_free;

static pthread_once_t chafa_once = PTHREAD_ONCE_INIT;
static int chafa_status;
static char chafa_error[160];
/// One term info for all renders (chafa's fallback: it knows every sequence).
static ChafaTermInfo *chafa_terminal;

static void chafa_load_once(void) {
  const cl_symbol symbols[] = {
      {"chafa_canvas_config_new", (void **)&p_chafa_canvas_config_new},
      {"chafa_canvas_config_unref", (void **)&p_chafa_canvas_config_unref},
      {"chafa_canvas_config_set_geometry", (void **)&p_chafa_canvas_config_set_geometry},
      {"chafa_canvas_config_set_cell_geometry",
       (void **)&p_chafa_canvas_config_set_cell_geometry},
      {"chafa_canvas_config_set_canvas_mode", (void **)&p_chafa_canvas_config_set_canvas_mode},
      {"chafa_canvas_config_set_pixel_mode", (void **)&p_chafa_canvas_config_set_pixel_mode},
      {"chafa_canvas_new", (void **)&p_chafa_canvas_new},
      {"chafa_canvas_unref", (void **)&p_chafa_canvas_unref},
      {"chafa_canvas_draw_all_pixels", (void **)&p_chafa_canvas_draw_all_pixels},
      {"chafa_canvas_print", (void **)&p_chafa_canvas_print},
      {"chafa_term_db_get_default", (void **)&p_chafa_term_db_get_default},
      {"chafa_term_db_get_fallback_info", (void **)&p_chafa_term_db_get_fallback_info},
      {"chafa_term_info_unref", (void **)&p_chafa_term_info_unref},
  };
  chafa_status = cl_load_library("libchafa.so.0", &chafa_handle, symbols,
                                 sizeof symbols / sizeof symbols[0], chafa_error,
                                 sizeof chafa_error);
  if (chafa_status != CL_OK) return;
  const cl_symbol glib_symbols[] = {{"g_string_free", (void **)&p_g_string_free}};
  chafa_status = cl_load_library("libglib-2.0.so.0", &glib_handle, glib_symbols, 1,
                                 chafa_error, sizeof chafa_error);
  if (chafa_status != CL_OK) return;
  chafa_terminal = p_chafa_term_db_get_fallback_info(p_chafa_term_db_get_default());
  if (chafa_terminal == NULL) {
    cl_message(chafa_error, sizeof chafa_error, "chafa has no terminal description");
    chafa_status = CL_ERROR_LIBRARY;
  }
}

int cl_chafa_load(char *message, size_t size) {
  pthread_once(&chafa_once, chafa_load_once);
  if (chafa_status != CL_OK) cl_message(message, size, "%s", chafa_error);
  return chafa_status;
}

int cl_chafa_render(int mode, const uint8_t *rgba, uint32_t width, uint32_t height, int columns,
                    int rows, int cell_width, int cell_height, uint8_t **out, size_t *out_size,
                    char *message, size_t message_size) {
  *out = NULL;
  *out_size = 0;
  int loaded = cl_chafa_load(message, message_size);
  if (loaded != CL_OK) return loaded;
  ChafaPixelMode pixel_mode;
  switch (mode) {
    case CL_CHAFA_SIXELS: pixel_mode = CHAFA_PIXEL_MODE_SIXELS; break;
    case CL_CHAFA_ITERM2: pixel_mode = CHAFA_PIXEL_MODE_ITERM2; break;
    case CL_CHAFA_KITTY: pixel_mode = CHAFA_PIXEL_MODE_KITTY; break;
    default: cl_message(message, message_size, "unknown mode %d", mode); return CL_ERROR_LIBRARY;
  }
  if (width == 0 || height == 0 || columns <= 0 || rows <= 0 || cell_width <= 0 ||
      cell_height <= 0 || width > 65535 || height > 65535) {
    cl_message(message, message_size, "nothing to draw");
    return CL_ERROR_UNREADABLE;
  }
  ChafaCanvasConfig *config = p_chafa_canvas_config_new();
  if (config == NULL) return CL_ERROR_MEMORY;
  p_chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
  p_chafa_canvas_config_set_pixel_mode(config, pixel_mode);
  p_chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
  p_chafa_canvas_config_set_geometry(config, columns, rows);
  ChafaCanvas *canvas = p_chafa_canvas_new(config);
  p_chafa_canvas_config_unref(config);
  if (canvas == NULL) return CL_ERROR_MEMORY;
  p_chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, (gint)width,
                                 (gint)height, (gint)width * 4);
  GString *printed = p_chafa_canvas_print(canvas, chafa_terminal);
  p_chafa_canvas_unref(canvas);
  if (printed == NULL) return CL_ERROR_MEMORY;
  uint8_t *buffer = malloc(printed->len ? printed->len : 1);
  if (buffer == NULL) {
    p_g_string_free(printed, TRUE);
    return CL_ERROR_MEMORY;
  }
  memcpy(buffer, printed->str, printed->len);
  *out = buffer;
  *out_size = printed->len;
  p_g_string_free(printed, TRUE);
  return CL_OK;
}
