#include <opencv2/core.hpp>
#include "threads.h"

void tablecam_set_num_threads(int n) { cv::setNumThreads(n); }
int tablecam_get_num_threads(void) { return cv::getNumThreads(); }
