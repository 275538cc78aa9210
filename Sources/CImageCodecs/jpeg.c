// JPEG through libjpeg-turbo (libjpeg.so.62), scaled in the DCT.
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "internal.h"

static void *jpeg_handle;
static __typeof__(jpeg_std_error) *p_jpeg_std_error;
static __typeof__(jpeg_CreateDecompress) *p_jpeg_CreateDecompress;
static __typeof__(jpeg_destroy_decompress) *p_jpeg_destroy_decompress;
static __typeof__(jpeg_mem_src) *p_jpeg_mem_src;
static __typeof__(jpeg_read_header) *p_jpeg_read_header;
static __typeof__(jpeg_calc_output_dimensions) *p_jpeg_calc_output_dimensions;
static __typeof__(jpeg_start_decompress) *p_jpeg_start_decompress;
static __typeof__(jpeg_read_scanlines) *p_jpeg_read_scanlines;

static pthread_once_t jpeg_once = PTHREAD_ONCE_INIT;
static int jpeg_status;
static char jpeg_error[160];

static void jpeg_load_once(void) {
  const cl_symbol symbols[] = {
      {"jpeg_std_error", (void **)&p_jpeg_std_error},
      {"jpeg_CreateDecompress", (void **)&p_jpeg_CreateDecompress},
      {"jpeg_destroy_decompress", (void **)&p_jpeg_destroy_decompress},
      {"jpeg_mem_src", (void **)&p_jpeg_mem_src},
      {"jpeg_read_header", (void **)&p_jpeg_read_header},
      {"jpeg_calc_output_dimensions", (void **)&p_jpeg_calc_output_dimensions},
      {"jpeg_start_decompress", (void **)&p_jpeg_start_decompress},
      {"jpeg_read_scanlines", (void **)&p_jpeg_read_scanlines},
  };
  jpeg_status = cl_load_library("libjpeg.so.62", &jpeg_handle, symbols,
                                sizeof symbols / sizeof symbols[0], jpeg_error,
                                sizeof jpeg_error);
}

int cl_jpeg_load(char *message, size_t size) {
  pthread_once(&jpeg_once, jpeg_load_once);
  if (jpeg_status != CL_OK) cl_message(message, size, "%s", jpeg_error);
  return jpeg_status;
}

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char *message;
  size_t message_size;
  int truncated;
} cl_jpeg_errors;

static void cl_jpeg_error_exit(j_common_ptr common) {
  cl_jpeg_errors *errors = (cl_jpeg_errors *)common->err;
  char text[JMSG_LENGTH_MAX];
  errors->manager.format_message(common, text);
  cl_message(errors->message, errors->message_size, "%s", text);
  longjmp(errors->jump, 1);
}

static void cl_jpeg_emit_message(j_common_ptr common, int level) {
  cl_jpeg_errors *errors = (cl_jpeg_errors *)common->err;
  // A warning about data ending early means a truncated file: an error here, not a grey
  // bottom half. Other warnings (extraneous bytes…) are common in camera files and harmless.
  if (level == -1 && errors->manager.msg_code == JWRN_JPEG_EOF) errors->truncated = 1;
}

static void cl_jpeg_output_message(j_common_ptr common) { (void)common; }

int cl_jpeg_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                   uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out) {
  struct jpeg_decompress_struct decoder;
  cl_jpeg_errors errors;
  memset(&decoder, 0, sizeof decoder);
  memset(&errors, 0, sizeof errors);
  errors.message = info->message;
  errors.message_size = sizeof info->message;
  // volatile: changed between setjmp and a longjmp back to it.
  uint8_t *volatile row = NULL;
  cl_scaler scaler;
  memset(&scaler, 0, sizeof scaler);
  cl_scaler *volatile active_scaler = NULL;
  decoder.err = p_jpeg_std_error(&errors.manager);
  errors.manager.error_exit = cl_jpeg_error_exit;
  errors.manager.emit_message = cl_jpeg_emit_message;
  errors.manager.output_message = cl_jpeg_output_message;
  if (setjmp(errors.jump)) {
    free(row);
    if (active_scaler) cl_scaler_free(active_scaler);
    p_jpeg_destroy_decompress(&decoder);
    return CL_ERROR_UNREADABLE;
  }
  p_jpeg_CreateDecompress(&decoder, JPEG_LIB_VERSION, sizeof decoder);
  // Progressive files keep every coefficient in memory: bound it (no backing store here).
  decoder.mem->max_memory_to_use = 512L * 1024 * 1024;
  p_jpeg_mem_src(&decoder, data, (unsigned long)size);
  p_jpeg_read_header(&decoder, TRUE);
  info->width = decoder.image_width;
  info->height = decoder.image_height;
  if ((uint64_t)decoder.image_width * decoder.image_height > max_pixels) {
    p_jpeg_destroy_decompress(&decoder);
    return CL_ERROR_TOO_MANY_PIXELS;
  }
  if (probe_only) {
    p_jpeg_destroy_decompress(&decoder);
    return CL_OK;
  }
  uint32_t fit_width, fit_height;
  cl_fit(decoder.image_width, decoder.image_height, max_width, max_height, &fit_width,
         &fit_height);
  // The smallest DCT scale n/8 whose output still covers the size asked for.
  decoder.scale_denom = 8;
  for (unsigned numerator = 1; numerator <= 8; numerator++) {
    decoder.scale_num = numerator;
    p_jpeg_calc_output_dimensions(&decoder);
    if (decoder.output_width >= fit_width && decoder.output_height >= fit_height) break;
  }
  int cmyk = decoder.jpeg_color_space == JCS_CMYK || decoder.jpeg_color_space == JCS_YCCK;
  decoder.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  p_jpeg_start_decompress(&decoder);
  uint32_t width = decoder.output_width, height = decoder.output_height;
  if (fit_width > width) fit_width = width;
  if (fit_height > height) fit_height = height;
  int status = cl_scaler_init(&scaler, width, height, fit_width, fit_height);
  if (status != CL_OK) {
    cl_message(info->message, sizeof info->message, "out of memory");
    p_jpeg_destroy_decompress(&decoder);
    return status;
  }
  active_scaler = &scaler;
  row = malloc((size_t)width * 4);
  if (row == NULL) {
    cl_scaler_free(&scaler);
    p_jpeg_destroy_decompress(&decoder);
    return CL_ERROR_MEMORY;
  }
  // Adobe's CMYK JPEGs store the channels inverted.
  int inverted = cmyk && decoder.saw_Adobe_marker;
  while (decoder.output_scanline < decoder.output_height) {
    JSAMPROW rows[1] = {row};
    if (p_jpeg_read_scanlines(&decoder, rows, 1) != 1) break;
    if (cmyk) {
      for (uint32_t x = 0; x < width; x++) {
        uint8_t *pixel = row + (size_t)x * 4;
        unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
        if (!inverted) {
          c = 255 - c;
          m = 255 - m;
          y = 255 - y;
          k = 255 - k;
        }
        pixel[0] = (uint8_t)(c * k / 255);
        pixel[1] = (uint8_t)(m * k / 255);
        pixel[2] = (uint8_t)(y * k / 255);
        pixel[3] = 255;
      }
    }
    cl_scaler_feed(&scaler, row);
    if (errors.truncated) break;
  }
  free(row);
  row = NULL;
  if (errors.truncated) {
    cl_message(info->message, sizeof info->message, "the file ends early (truncated)");
    cl_scaler_free(&scaler);
    p_jpeg_destroy_decompress(&decoder);
    return CL_ERROR_UNREADABLE;
  }
  // No jpeg_finish_decompress: what follows the last row (trailing markers) is not needed.
  p_jpeg_destroy_decompress(&decoder);
  cl_scaler_finish(&scaler, out);
  cl_scaler_free(&scaler);
  return CL_OK;
}
