// libFuzzer target for the image loading path: every input is probed and decoded as each of the
// four formats (the first byte picks the box size), through the same C code the program uses
// (Sources/CImageCodecs). A crash, a sanitizer report or a timeout is a finding. Built by
// Fuzz/images.sh.
#include <stddef.h>
#include <stdint.h>

#include "CImageCodecs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t box = size ? (uint32_t)(data[0] % 64) + 1 : 8;
  for (int format = CL_FORMAT_JPEG; format <= CL_FORMAT_GIF; format++) {
    cl_image_info info;
    cl_image_probe(format, data, size, 100000000u, &info);
    cl_pixels pixels;
    // At most 4 megapixels here, so that one input stays well inside the time limit.
    if (cl_image_decode(format, data, size, box, box, 4000000u, &info, &pixels) == CL_OK) {
      cl_pixels_free(&pixels);
    }
  }
  return 0;
}
