#ifndef TABLECAM_CONTRAST_H
#define TABLECAM_CONTRAST_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void *tablecam_equalizer;

tablecam_equalizer tablecam_equalizer_new(void);
void tablecam_equalizer_close(tablecam_equalizer e);
int tablecam_clahe(tablecam_equalizer e, void *src, void *dst, int tilesX, int tilesY, double clip, int simd);

#ifdef __cplusplus
}
#endif

#endif
