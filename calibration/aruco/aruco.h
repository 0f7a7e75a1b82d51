#ifndef TABLECAM_ARUCO_H
#define TABLECAM_ARUCO_H

#ifdef __cplusplus
extern "C" {
#endif

// Aruco_Detect finds markers of a predefined dictionary in a cv::Mat*. It
// writes at most max ids and 8*max corner coordinates and returns the number
// found (which may exceed max), or -1 on an OpenCV error.
int Aruco_Detect(void* mat, int dict, int max, int* ids, float* corners);

// Aruco_Draw draws marker id of a predefined dictionary, side pixels square
// with a border of borderBits cells, into the cv::Mat* out. It returns 0, or
// -1 on an OpenCV error.
int Aruco_Draw(int dict, int id, int side, int borderBits, void* out);

#ifdef __cplusplus
}
#endif

#endif
