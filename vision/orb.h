#ifndef TABLECAM_ORB_H
#define TABLECAM_ORB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void *tablecam_orb;

tablecam_orb tablecam_orb_new(int nfeatures, float scale_factor, int nlevels, int patch_size, int fast_threshold, int vectors);
void tablecam_orb_close(tablecam_orb o);
int tablecam_orb_detect(tablecam_orb o, void *gray, void *points);
void tablecam_orb_describe(tablecam_orb o, const int *ids, int n, unsigned char *out);

#ifdef __cplusplus
}
#endif

#endif
