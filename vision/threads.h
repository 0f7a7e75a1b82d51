#ifdef __cplusplus
extern "C" {
#endif
void tablecam_set_num_threads(int n);
int tablecam_get_num_threads(void);
#ifdef __cplusplus
}
#endif
