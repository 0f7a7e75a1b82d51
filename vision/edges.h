#ifndef TABLECAM_EDGES_H
#define TABLECAM_EDGES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void *tablecam_edges;

tablecam_edges tablecam_edges_new(void);
void tablecam_edges_close(tablecam_edges e);
int tablecam_canny(tablecam_edges e, void *src, void *mask, void *dst, int low, int high, int blur, int thick, int simd);

#ifdef __cplusplus
}
#endif

#endif
