#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>
#include "aruco.h"

int Aruco_Detect(void* mat, int dict, int max, int* ids, float* corners) {
    try {
        cv::Mat* img = static_cast<cv::Mat*>(mat);
        cv::Ptr<cv::aruco::Dictionary> d = cv::aruco::getPredefinedDictionary(dict);
        cv::Ptr<cv::aruco::DetectorParameters> p = cv::aruco::DetectorParameters::create();
        p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
        std::vector<int> found;
        std::vector<std::vector<cv::Point2f> > pts;
        cv::aruco::detectMarkers(*img, d, pts, found, p);
        int n = static_cast<int>(found.size());
        for (int i = 0; i < n && i < max; i++) {
            ids[i] = found[i];
            for (int k = 0; k < 4; k++) {
                corners[i * 8 + k * 2] = pts[i][k].x;
                corners[i * 8 + k * 2 + 1] = pts[i][k].y;
            }
        }
        return n;
    } catch (const cv::Exception&) {
        return -1;
    }
}

int Aruco_Draw(int dict, int id, int side, int borderBits, void* out) {
    try {
        cv::Ptr<cv::aruco::Dictionary> d = cv::aruco::getPredefinedDictionary(dict);
        cv::aruco::drawMarker(d, id, side, *static_cast<cv::Mat*>(out), borderBits);
        return 0;
    } catch (const cv::Exception&) {
        return -1;
    }
}
