#ifndef TABLECAM_RANSAC_H
#define TABLECAM_RANSAC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// tablecam_ransac_draws weighs RANSAC's draws of a similarity (see
// ransacSimilarity in similarity.go). pairs holds n point pairs, four
// doubles each (face x, y, top-down x, y); draw k is the similarity through
// pairs draws[2k] and draws[2k+1], tried when its scale squared lies in
// min_s2–max_s2, and it counts the pairs it maps within sqrt(t2) of their
// top-down points. The first draw with most of them is written to best (a,
// b, tx, ty) and their count returned (0: none). soa holds 4n doubles of
// scratch. portable, when not 0, keeps to the code any processor runs
// (the fast code finds the same).
int tablecam_ransac_draws(const double *pairs, int n, const int32_t *draws, int ndraws, double t2, double min_s2,
                          double max_s2, double *best, double *soa, int portable);

#ifdef __cplusplus
}
#endif

#endif
