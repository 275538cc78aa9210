#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void cl_message(char *buffer, size_t size, const char *format, ...) {
  if (buffer == NULL || size == 0) return;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(buffer, size, format, arguments);
  va_end(arguments);
}

int cl_load_library(const char *soname, void **handle, const cl_symbol *symbols, size_t count,
                    char *message, size_t message_size) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    cl_message(message, message_size, "%s", reason ? reason : soname);
    return CL_ERROR_LIBRARY;
  }
  for (size_t index = 0; index < count; index++) {
    void *symbol = dlsym(library, symbols[index].name);
    if (symbol == NULL) {
      cl_message(message, message_size, "%s has no %s", soname, symbols[index].name);
      dlclose(library);
      return CL_ERROR_LIBRARY;
    }
    *symbols[index].slot = symbol;
  }
  *handle = library;
  return CL_OK;
}

void cl_fit(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height,
            uint32_t *fit_width, uint32_t *fit_height) {
  if (max_width == 0) max_width = 1;
  if (max_height == 0) max_height = 1;
  if (width <= max_width && height <= max_height) {
    *fit_width = width;
    *fit_height = height;
    return;
  }
  // The smaller of the two ratios, in exact integer arithmetic.
  if ((uint64_t)max_width * height <= (uint64_t)max_height * width) {
    *fit_width = max_width;
    uint64_t scaled = ((uint64_t)height * max_width + width / 2) / width;
    *fit_height = scaled < 1 ? 1 : (uint32_t)scaled;
  } else {
    *fit_height = max_height;
    uint64_t scaled = ((uint64_t)width * max_height + height / 2) / height;
    *fit_width = scaled < 1 ? 1 : (uint32_t)scaled;
  }
  if (*fit_width > width) *fit_width = width;
  if (*fit_height > height) *fit_height = height;
}

int cl_scaler_init(cl_scaler *scaler, uint32_t src_width, uint32_t src_height,
                   uint32_t dst_width, uint32_t dst_height) {
  memset(scaler, 0, sizeof *scaler);
  if (dst_width == 0 || dst_height == 0 || dst_width > src_width || dst_height > src_height) {
    return CL_ERROR_UNREADABLE;
  }
  scaler->src_width = src_width;
  scaler->src_height = src_height;
  scaler->dst_width = dst_width;
  scaler->dst_height = dst_height;
  scaler->column_map = malloc(sizeof(uint32_t) * src_width);
  scaler->sums = calloc((size_t)dst_width * 4, sizeof(uint64_t));
  scaler->counts = calloc(dst_width, sizeof(uint32_t));
  scaler->out = malloc((size_t)dst_width * dst_height * 4);
  if (!scaler->column_map || !scaler->sums || !scaler->counts || !scaler->out) {
    cl_scaler_free(scaler);
    return CL_ERROR_MEMORY;
  }
  for (uint32_t x = 0; x < src_width; x++) {
    scaler->column_map[x] = (uint32_t)((uint64_t)x * dst_width / src_width);
  }
  return CL_OK;
}

static void cl_scaler_flush(cl_scaler *scaler) {
  uint8_t *row = scaler->out + (size_t)scaler->current_dst_row * scaler->dst_width * 4;
  for (uint32_t x = 0; x < scaler->dst_width; x++) {
    uint64_t *sum = scaler->sums + (size_t)x * 4;
    uint32_t count = scaler->counts[x];
    uint8_t *pixel = row + (size_t)x * 4;
    if (count == 0 || sum[3] == 0) {
      memset(pixel, 0, 4);
    } else {
      for (int channel = 0; channel < 3; channel++) {
        pixel[channel] = (uint8_t)((sum[channel] + sum[3] / 2) / sum[3]);
      }
      pixel[3] = (uint8_t)((sum[3] + count / 2) / count);
    }
  }
  memset(scaler->sums, 0, sizeof(uint64_t) * 4 * scaler->dst_width);
  memset(scaler->counts, 0, sizeof(uint32_t) * scaler->dst_width);
}

void cl_scaler_feed(cl_scaler *scaler, const uint8_t *row) {
  if (scaler->next_row >= scaler->src_height) return;
  uint32_t dst_row =
      (uint32_t)((uint64_t)scaler->next_row * scaler->dst_height / scaler->src_height);
  if (dst_row != scaler->current_dst_row) {
    cl_scaler_flush(scaler);
    scaler->current_dst_row = dst_row;
  }
  for (uint32_t x = 0; x < scaler->src_width; x++) {
    const uint8_t *pixel = row + (size_t)x * 4;
    uint64_t *sum = scaler->sums + (size_t)scaler->column_map[x] * 4;
    uint32_t alpha = pixel[3];
    sum[0] += (uint64_t)pixel[0] * alpha;
    sum[1] += (uint64_t)pixel[1] * alpha;
    sum[2] += (uint64_t)pixel[2] * alpha;
    sum[3] += alpha;
    scaler->counts[scaler->column_map[x]]++;
  }
  scaler->next_row++;
}

void cl_scaler_finish(cl_scaler *scaler, cl_pixels *out) {
  // Rows never fed (a decoder that stopped early) stay transparent.
  if (scaler->next_row > 0) cl_scaler_flush(scaler);
  size_t done = scaler->next_row == 0 ? 0 : (size_t)scaler->current_dst_row + 1;
  size_t row_bytes = (size_t)scaler->dst_width * 4;
  if (done < scaler->dst_height) {
    memset(scaler->out + done * row_bytes, 0, (scaler->dst_height - done) * row_bytes);
  }
  out->pixels = scaler->out;
  out->width = scaler->dst_width;
  out->height = scaler->dst_height;
  scaler->out = NULL;
}

void cl_scaler_free(cl_scaler *scaler) {
  free(scaler->column_map);
  free(scaler->sums);
  free(scaler->counts);
  free(scaler->out);
  memset(scaler, 0, sizeof *scaler);
}

void cl_pixels_free(cl_pixels *pixels) {
  if (pixels == NULL) return;
  free(pixels->pixels);
  pixels->pixels = NULL;
}

void cl_bytes_free(uint8_t *bytes) { free(bytes); }

int cl_library_load(int format, char *message, size_t message_size) {
  switch (format) {
    case CL_FORMAT_JPEG: return cl_jpeg_load(message, message_size);
    case CL_FORMAT_PNG: return cl_png_load(message, message_size);
    case CL_FORMAT_WEBP: return cl_webp_load(message, message_size);
    case CL_FORMAT_GIF: return cl_gif_load(message, message_size);
    case 0: return cl_chafa_load(message, message_size);
    default: cl_message(message, message_size, "unknown format %d", format); return CL_ERROR_LIBRARY;
  }
}

static int cl_dispatch(int format, const uint8_t *data, size_t size, uint32_t max_width,
                       uint32_t max_height, uint64_t max_pixels, int probe_only,
                       cl_image_info *info, cl_pixels *out) {
  memset(info, 0, sizeof *info);
  if (out) memset(out, 0, sizeof *out);
  if (format < CL_FORMAT_JPEG || format > CL_FORMAT_GIF) {
    cl_message(info->message, sizeof info->message, "unknown format %d", format);
    return CL_ERROR_UNREADABLE;
  }
  int loaded = cl_library_load(format, info->message, sizeof info->message);
  if (loaded != CL_OK) return loaded;
  if (data == NULL || size == 0) {
    cl_message(info->message, sizeof info->message, "the file is empty");
    return CL_ERROR_UNREADABLE;
  }
  switch (format) {
    case CL_FORMAT_JPEG:
      return cl_jpeg_decode(data, size, max_width, max_height, max_pixels, probe_only, info, out);
    case CL_FORMAT_PNG:
      return cl_png_decode(data, size, max_width, max_height, max_pixels, probe_only, info, out);
    case CL_FORMAT_WEBP:
      return cl_webp_decode(data, size, max_width, max_height, max_pixels, probe_only, info, out);
    default:
      return cl_gif_decode(data, size, max_width, max_height, max_pixels, probe_only, info, out);
  }
}

int cl_image_probe(int format, const uint8_t *data, size_t size, uint64_t max_pixels,
                   cl_image_info *info) {
  return cl_dispatch(format, data, size, 0, 0, max_pixels, 1, info, NULL);
}

int cl_image_decode(int format, const uint8_t *data, size_t size, uint32_t max_width,
                    uint32_t max_height, uint64_t max_pixels, cl_image_info *info,
                    cl_pixels *out) {
  return cl_dispatch(format, data, size, max_width, max_height, max_pixels, 0, info, out);
}
