// Package calibration finds the Sorcery realm (the 5×4 grid of the playmat) in a camera frame:
// automatically from the grid lines and border, from corners the user gives, or from printed ArUco
// markers. It computes the homography to a top-down realm image, saves and loads it as JSON, and
// notices when the camera or mat has moved.
package calibration
