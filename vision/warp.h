#ifndef TABLECAM_WARP_H
#define TABLECAM_WARP_H

#ifdef __cplusplus
extern "C" {
#endif

int tablecam_warp_perspective(void *src, void *dst, const double *inverse, int width, int height, int simd);
int tablecam_gray_region(void *src, void *dst, int x, int y, int w, int h, int simd);

#ifdef __cplusplus
}
#endif

#endif
