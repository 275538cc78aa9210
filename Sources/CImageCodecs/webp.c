// WebP through libwebp (libwebp.so.7), scaled by the decoder; the first frame of an animation
// through libwebpdemux (libwebpdemux.so.2).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

#include "internal.h"

static void *webp_handle;
static void *demux_handle;
static __typeof__(WebPGetFeaturesInternal) *p_WebPGetFeaturesInternal;
static __typeof__(WebPInitDecoderConfigInternal) *p_WebPInitDecoderConfigInternal;
static __typeof__(WebPDecode) *p_WebPDecode;
static __typeof__(WebPFreeDecBuffer) *p_WebPFreeDecBuffer;
static __typeof__(WebPDemuxInternal) *p_WebPDemuxInternal;
static __typeof__(WebPDemuxGetFrame) *p_WebPDemuxGetFrame;
static __typeof__(WebPDemuxReleaseIterator) *p_WebPDemuxReleaseIterator;
static __typeof__(WebPDemuxDelete) *p_WebPDemuxDelete;

static pthread_once_t webp_once = PTHREAD_ONCE_INIT;
static int webp_status;
static char webp_error[160];

static void webp_load_once(void) {
  const cl_symbol symbols[] = {
      {"WebPGetFeaturesInternal", (void **)&p_WebPGetFeaturesInternal},
      {"WebPInitDecoderConfigInternal", (void **)&p_WebPInitDecoderConfigInternal},
      {"WebPDecode", (void **)&p_WebPDecode},
      {"WebPFreeDecBuffer", (void **)&p_WebPFreeDecBuffer},
  };
  webp_status = cl_load_library("libwebp.so.7", &webp_handle, symbols,
                                sizeof symbols / sizeof symbols[0], webp_error,
                                sizeof webp_error);
  if (webp_status != CL_OK) return;
  const cl_symbol demux_symbols[] = {
      {"WebPDemuxInternal", (void **)&p_WebPDemuxInternal},
      {"WebPDemuxGetFrame", (void **)&p_WebPDemuxGetFrame},
      {"WebPDemuxReleaseIterator", (void **)&p_WebPDemuxReleaseIterator},
      {"WebPDemuxDelete", (void **)&p_WebPDemuxDelete},
  };
  webp_status = cl_load_library("libwebpdemux.so.2", &demux_handle, demux_symbols,
                                sizeof demux_symbols / sizeof demux_symbols[0], webp_error,
                                sizeof webp_error);
}

int cl_webp_load(char *message, size_t size) {
  pthread_once(&webp_once, webp_load_once);
  if (webp_status != CL_OK) cl_message(message, size, "%s", webp_error);
  return webp_status;
}

static const char *cl_webp_reason(VP8StatusCode code) {
  switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "damaged data (bitstream error)";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a WebP feature this decoder does not support";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the file ends early (truncated)";
    default: return "not a WebP image";
  }
}

int cl_webp_decode(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                   uint64_t max_pixels, int probe_only, cl_image_info *info, cl_pixels *out) {
  WebPBitstreamFeatures features;
  VP8StatusCode code =
      p_WebPGetFeaturesInternal(data, size, &features, WEBP_DECODER_ABI_VERSION);
  if (code != VP8_STATUS_OK) {
    cl_message(info->message, sizeof info->message, "%s", cl_webp_reason(code));
    return CL_ERROR_UNREADABLE;
  }
  if (features.width <= 0 || features.height <= 0) {
    cl_message(info->message, sizeof info->message, "no size in the header");
    return CL_ERROR_UNREADABLE;
  }
  info->width = (uint32_t)features.width;
  info->height = (uint32_t)features.height;
  if ((uint64_t)info->width * info->height > max_pixels) return CL_ERROR_TOO_MANY_PIXELS;
  if (probe_only) return CL_OK;

  // An animation: decode its first frame's bitstream.
  const uint8_t *bitstream = data;
  size_t bitstream_size = size;
  WebPDemuxer *demuxer = NULL;
  WebPIterator iterator;
  memset(&iterator, 0, sizeof iterator);
  int have_frame = 0;
  if (features.has_animation) {
    WebPData whole = {data, size};
    demuxer = p_WebPDemuxInternal(&whole, 0, NULL, WEBP_DEMUX_ABI_VERSION);
    if (demuxer == NULL || !p_WebPDemuxGetFrame(demuxer, 1, &iterator)) {
      if (demuxer) p_WebPDemuxDelete(demuxer);
      cl_message(info->message, sizeof info->message, "an animation without a readable frame");
      return CL_ERROR_UNREADABLE;
    }
    have_frame = 1;
    bitstream = iterator.fragment.bytes;
    bitstream_size = iterator.fragment.size;
  }

  WebPDecoderConfig config;
  int status = CL_OK;
  if (!p_WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION)) {
    cl_message(info->message, sizeof info->message, "libwebp version mismatch");
    status = CL_ERROR_LIBRARY;
    goto done;
  }
  code = p_WebPGetFeaturesInternal(bitstream, bitstream_size, &config.input,
                                   WEBP_DECODER_ABI_VERSION);
  if (code != VP8_STATUS_OK || config.input.width <= 0 || config.input.height <= 0 ||
      (uint64_t)config.input.width * (uint64_t)config.input.height > max_pixels) {
    cl_message(info->message, sizeof info->message, "%s", cl_webp_reason(code));
    status = CL_ERROR_UNREADABLE;
    goto done;
  }
  uint32_t fit_width, fit_height;
  cl_fit((uint32_t)config.input.width, (uint32_t)config.input.height, max_width, max_height,
         &fit_width, &fit_height);
  uint8_t *pixels = malloc((size_t)fit_width * fit_height * 4);
  if (pixels == NULL) {
    status = CL_ERROR_MEMORY;
    goto done;
  }
  if (fit_width != (uint32_t)config.input.width || fit_height != (uint32_t)config.input.height) {
    config.options.use_scaling = 1;
    config.options.scaled_width = (int)fit_width;
    config.options.scaled_height = (int)fit_height;
  }
  config.output.colorspace = MODE_RGBA;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = pixels;
  config.output.u.RGBA.stride = (int)fit_width * 4;
  config.output.u.RGBA.size = (size_t)fit_width * fit_height * 4;
  code = p_WebPDecode(bitstream, bitstream_size, &config);
  p_WebPFreeDecBuffer(&config.output);
  if (code != VP8_STATUS_OK) {
    free(pixels);
    cl_message(info->message, sizeof info->message, "%s", cl_webp_reason(code));
    status = CL_ERROR_UNREADABLE;
    goto done;
  }
  out->pixels = pixels;
  out->width = fit_width;
  out->height = fit_height;
done:
  if (have_frame) p_WebPDemuxReleaseIterator(&iterator);
  if (demuxer) p_WebPDemuxDelete(demuxer);
  return status;
}
