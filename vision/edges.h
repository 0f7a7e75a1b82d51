#ifndef TABLECAM_EDGES_H
#define TABLECAM_EDGES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void *tablecam_edges;

tablecam_edges tablecam_edges_new(void);
void tablecam_edges_close(tablecam_edges e);
int tablecam_canny(tablecam_edges e, void *src, void *mask, void *dst, int low, int high, int blur, int thick, int width,
                   const double *within, int nWithin, const double *hidden, int nHidden, void *thickToo, void *blurred);

// tablecam_rect is a contour's minimum-area rectangle as gocv gives it:
// corners, centre and sides rounded to whole pixels.
typedef struct {
    int x[4], y[4];
    int cx, cy, width, height;
} tablecam_rect;

int tablecam_blur(void *src, void *dst, int width);

const int *tablecam_mark_directions(tablecam_edges e, void *edges, void *grey, int width, int *n);
void tablecam_dir_codes(const int *gx, const int *gy, int n, int width, unsigned char *out);

const tablecam_rect *tablecam_filled_rects(tablecam_edges e, void *edges, double minArea, double fill, int edgesOnly, int *n);

#ifdef __cplusplus
}
#endif

#endif
