// The C side of the photos: the image libraries (libjpeg-turbo, libpng, libwebp, giflib,
// chafa), loaded with dlopen the first time a photo needs them, and called with the error
// handling C needs (setjmp/longjmp). No library is linked: a run without photos pays nothing.
#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

/// Formats (as ChecklistsCore's PhotoFormat).
enum { CL_FORMAT_JPEG = 1, CL_FORMAT_PNG = 2, CL_FORMAT_WEBP = 3, CL_FORMAT_GIF = 4 };

/// Results.
enum {
  CL_OK = 0,
  /// The bytes are not a readable image of the format (message says why).
  CL_ERROR_UNREADABLE = 1,
  /// The image has more pixels than allowed (width and height are set).
  CL_ERROR_TOO_MANY_PIXELS = 2,
  /// The library could not be loaded (message names it).
  CL_ERROR_LIBRARY = 3,
  /// Out of memory.
  CL_ERROR_MEMORY = 4,
};

/// Chafa's pixel output modes used here.
enum { CL_CHAFA_SIXELS = 1, CL_CHAFA_ITERM2 = 2, CL_CHAFA_KITTY = 3 };

/// What a probe or decode found.
typedef struct {
  /// The image's size as stored (before any EXIF orientation).
  uint32_t width;
  uint32_t height;
  /// Why it failed, NUL-terminated.
  char message[200];
} cl_image_info;

/// Decoded pixels: RGBA, 8 bits a channel, not premultiplied, rows packed (width * 4 bytes).
typedef struct {
  uint8_t *pixels;
  uint32_t width;
  uint32_t height;
} cl_pixels;

/// Reads the size from the header only (loads the format's library); CL_ERROR_TOO_MANY_PIXELS
/// (with the size) over max_pixels.
int cl_image_probe(int format, const uint8_t *data, size_t size, uint64_t max_pixels,
                   cl_image_info *info);

/// Decodes the image scaled down (area average) to fit in max_width x max_height, keeping its
/// aspect ratio and never scaling up. Refuses images over max_pixels before decoding pixels.
/// JPEG is decoded at the smallest DCT scale (1/8 ... 1) that still covers the size asked for;
/// PNG and non-interlaced GIF rows stream through the scaler; WebP is scaled by libwebp.
/// On CL_OK, `out->pixels` must be freed with cl_pixels_free.
int cl_image_decode(int format, const uint8_t *data, size_t size, uint32_t max_width,
                    uint32_t max_height, uint64_t max_pixels, cl_image_info *info,
                    cl_pixels *out);

void cl_pixels_free(cl_pixels *pixels);

/// Encodes RGBA pixels as a PNG (libpng's simplified API). On CL_OK free *out with cl_bytes_free.
int cl_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                  size_t *out_size, char *message, size_t message_size);

/// Renders RGBA pixels with chafa as sixels, an iTerm2 inline image or kitty graphics for a box
/// of columns x rows cells of cell_width x cell_height pixels. On CL_OK free *out with
/// cl_bytes_free.
int cl_chafa_render(int mode, const uint8_t *rgba, uint32_t width, uint32_t height, int columns,
                    int rows, int cell_width, int cell_height, uint8_t **out, size_t *out_size,
                    char *message, size_t message_size);

void cl_bytes_free(uint8_t *bytes);

/// Loads the library a format needs (0 for chafa); CL_OK or CL_ERROR_LIBRARY with a message.
int cl_library_load(int format, char *message, size_t message_size);

#endif
