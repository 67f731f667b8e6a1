/* The functions Thumbs calls in each library it opens on first use (LibraryLoader.c), one X(name)
 * per function. Trampolines.S gives each a trampoline by that name and LibraryLoader.c a slot the
 * trampoline jumps through; a function called but missing here is an undefined symbol at link time. */
#ifndef THUMBS_LIBRARY_SYMBOLS_H
#define THUMBS_LIBRARY_SYMBOLS_H

/* libvips. */
#define THUMBS_VIPS_SYMBOLS(X) \
    X(vips_addalpha) \
    X(vips_area_unref) \
    X(vips_array_double_new) \
    X(vips_arrayjoin) \
    X(vips_autorot) \
    X(vips_block_untrusted_set) \
    X(vips_cache_set_max) \
    X(vips_cache_set_max_files) \
    X(vips_cache_set_max_mem) \
    X(vips_colourspace) \
    X(vips_concurrency_set) \
    X(vips_copy) \
    X(vips_crop) \
    X(vips_error) \
    X(vips_error_buffer_copy) \
    X(vips_error_clear) \
    X(vips_flatten) \
    X(vips_format_sizeof_unsafe) \
    X(vips_heifload_source) \
    X(vips_icc_transform) \
    X(vips_image_copy_memory) \
    X(vips_image_get_bands) \
    X(vips_image_get_blob) \
    X(vips_image_get_fields) \
    X(vips_image_get_format) \
    X(vips_image_get_height) \
    X(vips_image_get_int) \
    X(vips_image_get_interpretation) \
    X(vips_image_get_n_pages) \
    X(vips_image_get_orientation) \
    X(vips_image_get_page_height) \
    X(vips_image_get_string) \
    X(vips_image_get_typeof) \
    X(vips_image_get_width) \
    X(vips_image_hasalpha) \
    X(vips_image_new_from_buffer) \
    X(vips_image_new_from_memory) \
    X(vips_image_new_from_memory_copy) \
    X(vips_image_new_from_source) \
    X(vips_image_remove) \
    X(vips_image_set_blob_copy) \
    X(vips_image_set_int) \
    X(vips_image_set_string) \
    X(vips_image_wio_input) \
    X(vips_image_write_to_memory) \
    X(vips_init) \
    X(vips_jpegload_buffer) \
    X(vips_jpegload_source) \
    X(vips_jpegsave_buffer) \
    X(vips_operation_block_set) \
    X(vips_pngsave_buffer) \
    X(vips_source_custom_new) \
    X(vips_source_get_type) \
    X(vips_source_new_from_descriptor) \
    X(vips_text) \
    X(vips_thumbnail_buffer) \
    X(vips_thumbnail_image) \
    X(vips_thumbnail_source) \
    X(vips_tiffsave_buffer) \
    X(vips_type_find) \
    X(vips_vector_set_enabled) \
    X(vips_version) \
    X(vips_version_string) \
    X(vips_webpload_source) \
    X(vips_webpsave_buffer) \
    /* end */

/* FFmpeg: libavformat, libavcodec, libavutil and libswscale. */
#define THUMBS_FFMPEG_SYMBOLS(X) \
    X(av_dict_get) \
    X(av_display_rotation_get) \
    X(av_fourcc_make_string) \
    X(av_frame_alloc) \
    X(av_frame_free) \
    X(av_frame_get_side_data) \
    X(av_frame_move_ref) \
    X(av_frame_new_side_data) \
    X(av_frame_unref) \
    X(av_free) \
    X(av_freep) \
    X(av_get_pix_fmt_name) \
    X(av_guess_sample_aspect_ratio) \
    X(av_log_set_callback) \
    X(av_log_set_level) \
    X(av_malloc) \
    X(av_packet_alloc) \
    X(av_packet_clone) \
    X(av_packet_free) \
    X(av_packet_unref) \
    X(av_pix_fmt_desc_get) \
    X(av_read_frame) \
    X(av_read_image_line2) \
    X(av_rescale) \
    X(av_seek_frame) \
    X(av_stream_get_side_data) \
    X(av_strerror) \
    X(av_version_info) \
    X(avcodec_alloc_context3) \
    X(avcodec_find_decoder) \
    X(avcodec_find_decoder_by_name) \
    X(avcodec_flush_buffers) \
    X(avcodec_free_context) \
    X(avcodec_get_name) \
    X(avcodec_open2) \
    X(avcodec_parameters_to_context) \
    X(avcodec_receive_frame) \
    X(avcodec_send_packet) \
    X(avformat_alloc_context) \
    X(avformat_close_input) \
    X(avformat_find_stream_info) \
    X(avformat_open_input) \
    X(avio_alloc_context) \
    X(avio_context_free) \
    X(sws_freeContext) \
    X(sws_getCoefficients) \
    X(sws_getContext) \
    X(sws_scale) \
    X(sws_setColorspaceDetails) \
    /* end */

/* libheif. */
#define THUMBS_HEIF_SYMBOLS(X) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_encode_thumbnail) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_number_of_top_level_images) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_write_to_file) \
    X(heif_decode_image) \
    X(heif_decoder_descriptor_get_name) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_get_decoder_descriptors) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_chroma_format) \
    X(heif_image_get_colorspace) \
    X(heif_image_get_content_light_level) \
    X(heif_image_get_mastering_display_colour_volume) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_free_auxiliary_types) \
    X(heif_image_handle_get_auxiliary_image_handle) \
    X(heif_image_handle_get_auxiliary_type) \
    X(heif_image_handle_get_chroma_bits_per_pixel) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_auxiliary_image_IDs) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_metadata_type) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_auxiliary_images) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_has_channel) \
    X(heif_image_has_content_light_level) \
    X(heif_image_has_mastering_display_colour_volume) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free) \
    X(heif_nclx_color_profile_set_color_primaries) \
    X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_nclx_color_profile_set_transfer_characteristics) \
    X(heif_register_decoder_plugin) \
    /* end */

/* libavif: the first frame of an AVIF image sequence (CAvifShim). */
#define THUMBS_AVIF_SYMBOLS(X) \
    X(avifDecoderCreate) \
    X(avifDecoderDestroy) \
    X(avifDecoderNextImage) \
    X(avifDecoderParse) \
    X(avifDecoderSetIOMemory) \
    X(avifImageYUVToRGB) \
    X(avifRGBImageSetDefaults) \
    X(avifResultToString) \
    X(avifVersion) \
    /* end */

/* LibRaw, its thread-safe build. */
#define THUMBS_LIBRAW_SYMBOLS(X) \
    X(libraw_adjust_sizes_info_only) \
    X(libraw_close) \
    X(libraw_dcraw_clear_mem) \
    X(libraw_dcraw_make_mem_image) \
    X(libraw_dcraw_process) \
    X(libraw_get_decoder_info) \
    X(libraw_init) \
    X(libraw_open_buffer) \
    X(libraw_open_file) \
    X(libraw_set_progress_handler) \
    X(libraw_strerror) \
    X(libraw_unpack) \
    X(libraw_unpack_thumb) \
    X(libraw_version) \
    /* end */

#endif
