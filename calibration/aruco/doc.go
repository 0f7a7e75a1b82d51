// Package aruco is a thin cgo binding to OpenCV 4.6's contrib cv::aruco:
// detecting predefined-dictionary markers in an image and drawing them, so
// that tablecam can take the realm's corners from printed markers.
package aruco
