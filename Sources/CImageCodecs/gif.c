// GIF through giflib (libgif.so.7): the first frame, composed on the logical screen
// (transparent where the frame does not cover it or its transparent colour is).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "internal.h"

static void *gif_handle;
static __typeof__(DGifOpen) *p_DGifOpen;
static __typeof__(DGifCloseFile) *p_DGifCloseFile;
static __typeof__(DGifGetRecordType) *p_DGifGetRecordType;
static __typeof__(DGifGetImageDesc) *p_DGifGetImageDesc;
static __typeof__(DGifGetLine) *p_DGifGetLine;
static __typeof__(DGifGetExtension) *p_DGifGetExtension;
static __typeof__(DGifGetExtensionNext) *p_DGifGetExtensionNext;
static __typeof__(GifErrorString) *p_GifErrorString;

static pthread_once_t gif_once = PTHREAD_ONCE_INIT;
static int gif_status;
static char gif_error[160];

static void gif_load_once(void) {
  const cl_symbol symbols[] = {
      {"DGifOpen", (void **)&p_DGifOpen},
      {"DGifCloseFile", (void **)&p_DGifCloseFile},
      {"DGifGetRecordType", (void **)&p_DGifGetRecordType},
      {"DGifGetImageDesc", (void **)&p_DGifGetImageDesc},
      {"DGifGetLine", (void **)&p_DGifGetLine},
      {"DGifGetExtension", (void **)&p_DGifGetExtension},
      {"DGifGetExtensionNext", (void **)&p_DGifGetExtensionNext},
      {"GifErrorString", (void **)&p_GifErrorString},
  };
  gif_status = cl_load_library("libgif.so.7", &gif_handle, symbols,
                               sizeof symbols / sizeof symbols[0], gif_error, sizeof gif_error);
}

int cl_gif_load(char *message, size_t size) {
  pthread_once(&gif_once, gif_load_once);
  if (gif_status != CL_OK) cl_message(message, size, "%s", gif_error);
  return gif_status;
}

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
} cl_gif_input;

static int cl_gif_read(GifFileType *gif, GifByteType *target, int length) {
  cl_gif_input *input = gif->UserData;
  if (length <= 0) return 0;
  size_t available = input->size - input->offset;
  size_t count = (size_t)length < available ? (size_t)length : available;
  memcpy(target, input->data + input->offset, count);
  input->offset += count;
  return (int)count;
}

static int cl_gif_fail(cl_image_info *info, int code, const char *fallback) {
  const char *text = code ? p_GifErrorString(code) : NULL;
  cl_message(info->message, sizeof info->message, "%s", text ? text : fallback);
  return CL_ERROR_UNREADABLE;
}

int cl_gif_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                  uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out) {
  cl_gif_input input = {data, size, 0};
  int error = 0;
  GifFileType *gif = p_DGifOpen(&input, cl_gif_read, &error);
  if (gif == NULL) return cl_gif_fail(info, error, "not a GIF image");
  int status = CL_OK;
  uint8_t *indices = NULL;
  uint8_t *row = NULL;
  cl_scaler scaler;
  memset(&scaler, 0, sizeof scaler);
  uint32_t width = (uint32_t)(gif->SWidth > 0 ? gif->SWidth : 0);
  uint32_t height = (uint32_t)(gif->SHeight > 0 ? gif->SHeight : 0);
  info->width = width;
  info->height = height;
  if (width == 0 || height == 0) {
    status = cl_gif_fail(info, 0, "the image has no size");
    goto done;
  }
  if ((uint64_t)width * height > max_pixels) {
    status = CL_ERROR_TOO_MANY_PIXELS;
    goto done;
  }
  if (probe_only) goto done;

  int transparent = -1;
  for (;;) {
    GifRecordType record;
    if (p_DGifGetRecordType(gif, &record) == GIF_ERROR) {
      status = cl_gif_fail(info, gif->Error, "damaged data");
      goto done;
    }
    if (record == TERMINATE_RECORD_TYPE) {
      status = cl_gif_fail(info, 0, "no image in the file");
      goto done;
    }
    if (record == EXTENSION_RECORD_TYPE) {
      int code;
      GifByteType *block;
      if (p_DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
        status = cl_gif_fail(info, gif->Error, "damaged extension");
        goto done;
      }
      // Graphic control: the first frame's transparent colour.
      if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4 && (block[1] & 1)) {
        transparent = block[4];
      }
      while (block != NULL) {
        if (p_DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
          status = cl_gif_fail(info, gif->Error, "damaged extension");
          goto done;
        }
      }
      continue;
    }
    if (record == IMAGE_DESC_RECORD_TYPE) break;
  }
  if (p_DGifGetImageDesc(gif) == GIF_ERROR) {
    status = cl_gif_fail(info, gif->Error, "damaged image descriptor");
    goto done;
  }
  GifImageDesc *frame = &gif->Image;
  if (frame->Width <= 0 || frame->Height <= 0 ||
      (uint64_t)frame->Width * (uint64_t)frame->Height > max_pixels) {
    status = cl_gif_fail(info, 0, "a frame of impossible size");
    goto done;
  }
  ColorMapObject *colors = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
  if (colors == NULL || colors->Colors == NULL) {
    status = cl_gif_fail(info, 0, "no colour table");
    goto done;
  }
  uint32_t frame_width = (uint32_t)frame->Width, frame_height = (uint32_t)frame->Height;
  indices = malloc((size_t)frame_width * frame_height);
  if (indices == NULL) {
    status = CL_ERROR_MEMORY;
    goto done;
  }
  // Interlaced rows come in four passes: 0, 4, 8…; 4, 12…; 2, 6…; 1, 3….
  static const uint32_t starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
  int passes = frame->Interlace ? 4 : 1;
  for (int pass = 0; pass < passes; pass++) {
    uint32_t start = frame->Interlace ? starts[pass] : 0;
    uint32_t step = frame->Interlace ? steps[pass] : 1;
    for (uint32_t y = start; y < frame_height; y += step) {
      if (p_DGifGetLine(gif, indices + (size_t)y * frame_width, (int)frame_width) == GIF_ERROR) {
        status = cl_gif_fail(info, gif->Error, "damaged image data");
        goto done;
      }
    }
  }
  uint32_t fit_width, fit_height;
  cl_fit(width, height, max_width, max_height, &fit_width, &fit_height);
  status = cl_scaler_init(&scaler, width, height, fit_width, fit_height);
  if (status != CL_OK) goto done;
  row = malloc((size_t)width * 4);
  if (row == NULL) {
    status = CL_ERROR_MEMORY;
    goto done;
  }
  int64_t left = frame->Left, top = frame->Top;
  for (uint32_t y = 0; y < height; y++) {
    memset(row, 0, (size_t)width * 4);
    int64_t frame_y = (int64_t)y - top;
    if (frame_y >= 0 && frame_y < (int64_t)frame_height) {
      const uint8_t *source = indices + (size_t)frame_y * frame_width;
      for (uint32_t x = 0; x < width; x++) {
        int64_t frame_x = (int64_t)x - left;
        if (frame_x < 0 || frame_x >= (int64_t)frame_width) continue;
        int index = source[frame_x];
        if (index == transparent || index >= colors->ColorCount) continue;
        uint8_t *pixel = row + (size_t)x * 4;
        pixel[0] = colors->Colors[index].Red;
        pixel[1] = colors->Colors[index].Green;
        pixel[2] = colors->Colors[index].Blue;
        pixel[3] = 255;
      }
    }
    cl_scaler_feed(&scaler, row);
  }
  cl_scaler_finish(&scaler, out);
done:
  cl_scaler_free(&scaler);
  free(row);
  free(indices);
  p_DGifCloseFile(gif, &error);
  return status;
}
