// Video probing and poster frames with FFmpeg (libavformat, libavcodec, libswscale).
//
// FFmpeg's structs change layout between major versions, so none of them crosses into Swift:
// these functions take a descriptor and fill plain structs. They read only through the
// descriptor the caller opened beneath its library root (with pread, at offsets of their own,
// so the descriptor's offset is untouched and one descriptor may serve several calls at once);
// they never open a path, and a container that names other files (a playlist, a reference
// movie) is refused the open. The descriptor stays open: the caller closes it.
//
// Thread safety: any number of calls may run at once on different threads. The only process-wide
// state is FFmpeg's log, which the first call routes away from stderr, once (see VideoInput.c).
// Each call decodes on its own thread only (the caller runs one decode per core already).
//
// The probe and the poster write a NUL-terminated reason into `message` (up to `message_size`
// bytes, "" on success; "open: the file is empty" for an empty file, FFmpeg's own words such as
// "moov atom not found" in parentheses where it logged some); `message` may be NULL when
// `message_size` is 0. A `time_limit_seconds` of 0 or less means no limit.
#ifndef THUMBS_CVIDEOSHIM_H
#define THUMBS_CVIDEOSHIM_H

#include <stddef.h>
#include <stdint.h>

#include <CToneMap.h>

typedef enum {
    THUMBS_VIDEO_OK = 0,
    /// A read on the descriptor failed (the errno text is in the message).
    THUMBS_VIDEO_UNREADABLE,
    /// Not a container FFmpeg recognises, or damaged or truncated so that its header cannot be
    /// read (an empty file, garbage, a QuickTime file without its moov atom).
    THUMBS_VIDEO_INVALID,
    /// The container holds no video stream (an audio file; a cover picture alone does not count).
    THUMBS_VIDEO_NO_VIDEO_STREAM,
    /// This FFmpeg has no decoder for the video codec (the message names the codec).
    THUMBS_VIDEO_DECODER_MISSING,
    /// The time limit passed.
    THUMBS_VIDEO_TIMED_OUT,
    /// The container opened, but no frame could be decoded.
    THUMBS_VIDEO_NO_FRAME,
    THUMBS_VIDEO_NO_MEMORY,
} thumbs_video_status;

typedef struct {
    /// The demuxer's first name, e.g. "mov" (also MP4), "matroska" (also WebM), "avi".
    char container[32];
    /// The video codec's name, e.g. "h264", "hevc", "vp9", "mjpeg"; for a codec FFmpeg does not
    /// know, its fourcc as text when the container gives one, else "none".
    char codec[32];
    /// The stored frame size. When the pixels are not square (sample aspect ratio not 1:1) the
    /// width is scaled by it, so width:height is the displayed aspect ratio before rotation.
    int32_t width, height;
    /// Clockwise degrees (0, 90, 180 or 270) to turn the stored frame to upright, from the
    /// container's display matrix (FFmpeg reports it counter-clockwise; this is the opposite).
    int32_t rotation;
    /// 1 when the display matrix also mirrors: after turning by `rotation`, flip left to right.
    int32_t mirrored;
    /// Seconds; -1 when unknown.
    double duration;
    /// Frames per second (the average rate, else the base rate); 0 when unknown.
    double frame_rate;
    /// 1 when the file has an audio stream.
    int32_t has_audio;
    /// 1 when the file has an attached picture (a cover: MP4 covr, a Matroska image attachment).
    int32_t has_cover;
    /// 1 when this FFmpeg has a decoder for `codec` (thumbs_video_poster can decode frames).
    int32_t decodable;
    /// The video stream's ITU-T H.273 transfer characteristics as the header gives them (a
    /// QuickTime `colr` box, Matroska's Colour element): 16 for PQ, 18 for HLG, 1 for BT.709...;
    /// 2 (unspecified) when it gives none, though the codec's own headers may state one, which
    /// the decoded frames then carry and the poster goes by.
    int32_t transfer;
    /// The "creation_time" tag of the file, else of the video stream, as FFmpeg gives it
    /// (ISO 8601 in UTC for QuickTime/MP4, e.g. "2018-03-07T15:21:21.000000Z"; AVI writes local
    /// time without a zone); "" when there is none.
    char creation_time[64];
    /// The "com.apple.quicktime.creationdate" tag (local time with its UTC offset, e.g.
    /// "2020-04-17T10:03:47-0600"); "" when there is none.
    char creation_date[64];
    /// The "com.apple.quicktime.content.identifier" tag: the UUID a Live Photo's movie shares
    /// with its still; "" when there is none. Up to 256 bytes, as long as a still's may be.
    char content_identifier[257];
    /// The "com.android.capture.fps" tag: the frames a second the camera captured when the
    /// file plays at another rate (a slow-motion or time-lapse video from Android's
    /// MediaRecorder), as FFmpeg gives it (e.g. "240.000000"); "" when there is none.
    char capture_rate[32];
} thumbs_video_info;

typedef struct {
    /// RGB, 8 bits per channel, rows packed without padding (stride width * 3); malloc'ed.
    /// NULL when `encoded` is set.
    uint8_t *pixels;
    /// The size of `pixels`, in the stored orientation (the caller turns it by info.rotation).
    /// Non-square pixels are already made square. For `encoded`, the cover's size when the
    /// container states it, else 0.
    int32_t width, height;
    /// The attached cover picture's bytes, as stored (JPEG or PNG), when that was returned
    /// instead of a decoded frame (degraded mode only); malloc'ed. NULL otherwise.
    uint8_t *encoded;
    size_t encoded_size;
    /// The returned frame's presentation time in seconds; -1 when unknown or for a cover.
    double time;
    /// Packets sent to the decoder by the call (the cost; 0 for a cover).
    int32_t packets_decoded;
    /// 1 when the returned frame is still nearly uniform (every candidate was, e.g. a video
    /// that is black throughout); the frame is the least uniform one found.
    int32_t uniform;
} thumbs_video_frame;

/// Reads the container header only, decoding no frame, and fills `info`. Returns THUMBS_VIDEO_OK
/// when the file has a video stream, even one without a decoder (see info.decodable). On
/// THUMBS_VIDEO_NO_VIDEO_STREAM `info` is filled as far as it goes (container, duration,
/// has_audio, has_cover, the dates); on other failures it is zeroed.
thumbs_video_status thumbs_video_probe(int descriptor, double time_limit_seconds,
    thumbs_video_info *info, char *message, size_t message_size);

/// The poster frame of a video.
///
/// `mode` 0 (final): a representative frame. Seeks back to the keyframe at or before 10 % of
/// the duration, at most 3 s in (the start when the duration is unknown), and decodes that one
/// keyframe. When it is nearly uniform (a fade or a black leader: the standard deviation of luma
/// over a sparse sample below 6 of 255), it tries up to 3 later keyframes, each at least a
/// second after the one before, and returns the least uniform.
///
/// `mode` 1 (degraded, cheapest): the attached cover picture's bytes when there is one (nothing
/// decoded), otherwise the first keyframe, decoded with the loop filter skipped, uniform or not.
/// Any other `mode` is taken as 0.
///
/// In both modes a keyframe that fails to decode (damaged) counts as an attempt and the next one
/// is tried. A keyframe is decoded alone (the decoder is drained after it); only when that gives
/// no picture (an H.264 recovery point rather than an IDR frame) are the packets after it decoded
/// until one comes out.
///
/// The pixels are scaled down (swscale, bicubic) to the smallest size that is at least
/// `min_width` x `min_height` in the stored orientation, keeping the aspect ratio; never
/// enlarged; 0 x 0 means full size (a 0 leaves that side free). Where the codec can decode at
/// a reduced size (AVCodecContext.lowres: MJPEG, MPEG-1/2/4, H.263, DV, JPEG 2000; not H.264,
/// HEVC, VP9 or AV1), the smallest such size that still covers the minimum is decoded.
///
/// `time_limit_seconds` bounds the whole call: reads fail once it has passed, it is checked
/// between packets, and at most 2048 packets are read per keyframe looked for. A single frame's
/// decode cannot be interrupted (about 50 ms for a 4K H.264 keyframe here). When the limit passes
/// after a frame was found, that frame is returned. A stream whose frames exceed 16384 x 8192
/// pixels is refused before anything is allocated for it (THUMBS_VIDEO_INVALID when the
/// container states the size, THUMBS_VIDEO_NO_FRAME when only the frames do).
///
/// On THUMBS_VIDEO_OK the caller owns the frame's buffers and frees them with
/// thumbs_video_frame_free; on failure `frame` is zeroed and owns nothing.
thumbs_video_status thumbs_video_poster(int descriptor, int32_t mode, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_video_frame *frame, char *message,
    size_t message_size);

/// The light of the poster frame thumbs_video_poster gives in mode 0 for the same minimum size,
/// when that frame is HDR (a PQ or HLG transfer): the same frame, found and decoded by the same
/// steps under the same time limit, scaled to the same size and so value for value the poster's
/// pixels; each value the BT.709 luminance of its display light relative to SDR white
/// (thumbs_tone_map_relative_luminance, before the tone map), which is what a gain map
/// restores. In the stored orientation, as the poster's pixels are: the caller turns it by
/// info.rotation and info.mirrored (`light->orientation` is left 0).
///
/// On THUMBS_VIDEO_OK the caller owns light->luminance and frees it with free(); it is NULL
/// when the frame is SDR. On failure (the poster's statuses) `light` is zeroed and owns nothing.
thumbs_video_status thumbs_video_poster_light(int descriptor, int32_t min_width,
    int32_t min_height, double time_limit_seconds, thumbs_light_plane *light, char *message,
    size_t message_size);

/// Frees the frame's buffers and zeroes it. Safe on a zeroed frame and twice.
void thumbs_video_frame_free(thumbs_video_frame *frame);

/// Routes FFmpeg's log, process-wide, through Thumbs' callback, which prints nothing: a damaged
/// file surfaces as a status, never as noise on a user's terminal. Every use of FFmpeg calls it
/// first; later calls do nothing.
void thumbs_ffmpeg_quiet_log(void);

/// The FFmpeg release the libraries linked at run time belong to, e.g. "5.1.6-0+deb12u1"
/// (av_version_info); a static string.
const char *thumbs_video_library_version(void);

#endif
