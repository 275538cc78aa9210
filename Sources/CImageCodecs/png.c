// PNG through libpng 1.6 (libpng16.so.16): rows streamed through the scaler.
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "internal.h"

static void *png_handle;
static __typeof__(png_create_read_struct) *p_png_create_read_struct;
static __typeof__(png_create_info_struct) *p_png_create_info_struct;
static __typeof__(png_destroy_read_struct) *p_png_destroy_read_struct;
static __typeof__(png_set_read_fn) *p_png_set_read_fn;
static __typeof__(png_get_io_ptr) *p_png_get_io_ptr;
static __typeof__(png_get_error_ptr) *p_png_get_error_ptr;
static __typeof__(png_set_user_limits) *p_png_set_user_limits;
static __typeof__(png_set_chunk_malloc_max) *p_png_set_chunk_malloc_max;
static __typeof__(png_read_info) *p_png_read_info;
static __typeof__(png_get_IHDR) *p_png_get_IHDR;
static __typeof__(png_get_valid) *p_png_get_valid;
static __typeof__(png_set_expand) *p_png_set_expand;
static __typeof__(png_set_strip_16) *p_png_set_strip_16;
static __typeof__(png_set_gray_to_rgb) *p_png_set_gray_to_rgb;
static __typeof__(png_set_add_alpha) *p_png_set_add_alpha;
static __typeof__(png_set_interlace_handling) *p_png_set_interlace_handling;
static __typeof__(png_read_update_info) *p_png_read_update_info;
static __typeof__(png_get_rowbytes) *p_png_get_rowbytes;
static __typeof__(png_read_row) *p_png_read_row;
static __typeof__(png_error) *p_png_error;
static __typeof__(png_image_write_to_memory) *p_png_image_write_to_memory;

static pthread_once_t png_once = PTHREAD_ONCE_INIT;
static int png_status;
static char png_load_error[160];

static void png_load_once(void) {
  const cl_symbol symbols[] = {
      {"png_create_read_struct", (void **)&p_png_create_read_struct},
      {"png_create_info_struct", (void **)&p_png_create_info_struct},
      {"png_destroy_read_struct", (void **)&p_png_destroy_read_struct},
      {"png_set_read_fn", (void **)&p_png_set_read_fn},
      {"png_get_io_ptr", (void **)&p_png_get_io_ptr},
      {"png_get_error_ptr", (void **)&p_png_get_error_ptr},
      {"png_set_user_limits", (void **)&p_png_set_user_limits},
      {"png_set_chunk_malloc_max", (void **)&p_png_set_chunk_malloc_max},
      {"png_read_info", (void **)&p_png_read_info},
      {"png_get_IHDR", (void **)&p_png_get_IHDR},
      {"png_get_valid", (void **)&p_png_get_valid},
      {"png_set_expand", (void **)&p_png_set_expand},
      {"png_set_strip_16", (void **)&p_png_set_strip_16},
      {"png_set_gray_to_rgb", (void **)&p_png_set_gray_to_rgb},
      {"png_set_add_alpha", (void **)&p_png_set_add_alpha},
      {"png_set_interlace_handling", (void **)&p_png_set_interlace_handling},
      {"png_read_update_info", (void **)&p_png_read_update_info},
      {"png_get_rowbytes", (void **)&p_png_get_rowbytes},
      {"png_read_row", (void **)&p_png_read_row},
      {"png_error", (void **)&p_png_error},
      {"png_image_write_to_memory", (void **)&p_png_image_write_to_memory},
  };
  png_status = cl_load_library("libpng16.so.16", &png_handle, symbols,
                               sizeof symbols / sizeof symbols[0], png_load_error,
                               sizeof png_load_error);
}

int cl_png_load(char *message, size_t size) {
  pthread_once(&png_once, png_load_once);
  if (png_status != CL_OK) cl_message(message, size, "%s", png_load_error);
  return png_status;
}

/// The largest interlaced PNG decoded (it needs the whole image in memory: 4 bytes a pixel).
#define CL_PNG_INTERLACED_LIMIT (25u * 1000u * 1000u)

typedef struct {
  jmp_buf jump;
  char *message;
  size_t message_size;
  const uint8_t *data;
  size_t size;
  size_t offset;
} cl_png_context;

static void cl_png_fail(png_structp png, png_const_charp text) {
  cl_png_context *context = p_png_get_error_ptr(png);
  cl_message(context->message, context->message_size, "%s", text);
  longjmp(context->jump, 1);
}

static void cl_png_warn(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

static void cl_png_read(png_structp png, png_bytep target, size_t length) {
  cl_png_context *context = p_png_get_io_ptr(png);
  if (length > context->size - context->offset) p_png_error(png, "the file ends early (truncated)");
  memcpy(target, context->data + context->offset, length);
  context->offset += length;
}

int cl_png_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                  uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out) {
  // The size is checked from IHDR (always first, at a fixed place) before libpng reads on:
  // it reads every chunk up to the image data before it reports the size.
  if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
    uint32_t width = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 |
                     (uint32_t)data[18] << 8 | data[19];
    uint32_t height = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 |
                      (uint32_t)data[22] << 8 | data[23];
    if ((uint64_t)width * height > max_pixels) {
      info->width = width;
      info->height = height;
      return CL_ERROR_TOO_MANY_PIXELS;
    }
  }
  cl_png_context context = {.message = info->message,
                            .message_size = sizeof info->message,
                            .data = data,
                            .size = size};
  png_structp png =
      p_png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, cl_png_fail, cl_png_warn);
  if (png == NULL) return CL_ERROR_MEMORY;
  png_infop png_info = p_png_create_info_struct(png);
  if (png_info == NULL) {
    p_png_destroy_read_struct(&png, NULL, NULL);
    return CL_ERROR_MEMORY;
  }
  uint8_t *volatile row = NULL;
  uint8_t *volatile whole = NULL;
  cl_scaler scaler;
  memset(&scaler, 0, sizeof scaler);
  cl_scaler *volatile active_scaler = NULL;
  if (setjmp(context.jump)) {
    free(row);
    free(whole);
    if (active_scaler) cl_scaler_free(active_scaler);
    p_png_destroy_read_struct(&png, &png_info, NULL);
    return CL_ERROR_UNREADABLE;
  }
  p_png_set_read_fn(png, &context, cl_png_read);
  p_png_set_user_limits(png, 1000000, 1000000);
  p_png_set_chunk_malloc_max(png, 16 * 1024 * 1024);
  p_png_read_info(png, png_info);
  png_uint_32 width, height;
  int bit_depth, color_type, interlace;
  p_png_get_IHDR(png, png_info, &width, &height, &bit_depth, &color_type, &interlace, NULL,
                 NULL);
  info->width = width;
  info->height = height;
  if ((uint64_t)width * height > max_pixels) {
    p_png_destroy_read_struct(&png, &png_info, NULL);
    return CL_ERROR_TOO_MANY_PIXELS;
  }
  if (probe_only) {
    p_png_destroy_read_struct(&png, &png_info, NULL);
    return CL_OK;
  }
  p_png_set_expand(png);
  if (bit_depth == 16) p_png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    p_png_set_gray_to_rgb(png);
  }
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !p_png_get_valid(png, png_info, PNG_INFO_tRNS)) {
    p_png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  }
  int passes = p_png_set_interlace_handling(png);
  p_png_read_update_info(png, png_info);
  if (p_png_get_rowbytes(png, png_info) != (size_t)width * 4) {
    p_png_error(png, "unexpected row layout");
  }
  uint32_t fit_width, fit_height;
  cl_fit(width, height, max_width, max_height, &fit_width, &fit_height);
  int status = cl_scaler_init(&scaler, width, height, fit_width, fit_height);
  if (status != CL_OK) {
    p_png_destroy_read_struct(&png, &png_info, NULL);
    return status;
  }
  active_scaler = &scaler;
  if (passes > 1) {
    if ((uint64_t)width * height > CL_PNG_INTERLACED_LIMIT) {
      p_png_error(png, "an interlaced PNG over 25 megapixels is not shown");
    }
    whole = malloc((size_t)width * height * 4);
    if (whole == NULL) p_png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++) {
      for (uint32_t y = 0; y < height; y++) {
        p_png_read_row(png, whole + (size_t)y * width * 4, NULL);
      }
    }
    for (uint32_t y = 0; y < height; y++) cl_scaler_feed(&scaler, whole + (size_t)y * width * 4);
  } else {
    row = malloc((size_t)width * 4);
    if (row == NULL) p_png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) {
      p_png_read_row(png, row, NULL);
      cl_scaler_feed(&scaler, row);
    }
  }
  free(row);
  row = NULL;
  free(whole);
  whole = NULL;
  p_png_destroy_read_struct(&png, &png_info, NULL);
  cl_scaler_finish(&scaler, out);
  cl_scaler_free(&scaler);
  return CL_OK;
}

int cl_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                  size_t *out_size, char *message, size_t message_size) {
  *out = NULL;
  *out_size = 0;
  int loaded = cl_png_load(message, message_size);
  if (loaded != CL_OK) return loaded;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  if (!p_png_image_write_to_memory(&image, NULL, &size, 0, rgba, 0, NULL)) {
    cl_message(message, message_size, "%s", image.message);
    return CL_ERROR_UNREADABLE;
  }
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return CL_ERROR_MEMORY;
  if (!p_png_image_write_to_memory(&image, buffer, &size, 0, rgba, 0, NULL)) {
    cl_message(message, message_size, "%s", image.message);
    free(buffer);
    return CL_ERROR_UNREADABLE;
  }
  *out = buffer;
  *out_size = size;
  return CL_OK;
}
