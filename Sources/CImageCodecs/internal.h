// Shared by the codec files: the scaler and message helpers.
#ifndef CIMAGECODECS_INTERNAL_H
#define CIMAGECODECS_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "CImageCodecs.h"

/// Streams source rows (RGBA) into a box-filtered image of dst_width x dst_height.
typedef struct {
  uint32_t src_width, src_height, dst_width, dst_height;
  uint32_t next_row;
  uint32_t current_dst_row;
  uint32_t *column_map;  // src x -> dst x
  uint64_t *sums;        // dst_width * 4: r*a, g*a, b*a, a
  uint32_t *counts;      // dst_width
  uint8_t *out;          // dst_width * dst_height * 4
} cl_scaler;

int cl_scaler_init(cl_scaler *scaler, uint32_t src_width, uint32_t src_height,
                   uint32_t dst_width, uint32_t dst_height);
void cl_scaler_feed(cl_scaler *scaler, const uint8_t *row);
/// Hands the finished pixels over to `out` (the scaler no longer owns them).
void cl_scaler_finish(cl_scaler *scaler, cl_pixels *out);
void cl_scaler_free(cl_scaler *scaler);

/// The size that fits width x height in max_width x max_height keeping the aspect ratio,
/// never larger than the image.
void cl_fit(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height,
            uint32_t *fit_width, uint32_t *fit_height);

void cl_message(char *buffer, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// dlopen of one library by soname, with dlsym of each name into its pointer.
typedef struct {
  const char *name;
  void **slot;
} cl_symbol;
int cl_load_library(const char *soname, void **handle, const cl_symbol *symbols, size_t count,
                    char *message, size_t message_size);

int cl_jpeg_load(char *message, size_t size);
int cl_png_load(char *message, size_t size);
int cl_webp_load(char *message, size_t size);
int cl_gif_load(char *message, size_t size);
int cl_chafa_load(char *message, size_t size);

int cl_jpeg_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                   uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out);
int cl_png_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                  uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out);
int cl_webp_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                   uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out);
int cl_gif_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                  uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out);

#endif
