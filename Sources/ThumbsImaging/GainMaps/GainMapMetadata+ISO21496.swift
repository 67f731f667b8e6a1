import Foundation
import ThumbsCore

/// The metadata in ISO 21496-1's binary form, the standard's own, which readers that follow it
/// (Chromium's among them) read as well as the XMP one: an APP2 segment of the signature
/// `urn:iso:std:iso:ts:21496:-1` (``UltraHDRJPEG/iso21496Signature``), holding only the
/// versions in the primary picture and the whole metadata in the gain map. Big-endian: the
/// minimum reader version and the writer's (0, 0); a flags byte (0x80: three channels; 0x40: the gain map's math in the base picture's
/// colour space); the base picture's headroom and the alternate (HDR) one's, in stops, as
/// unsigned rationals (`HDRCapacityMin`, `HDRCapacityMax`); then per channel the gain map's
/// least and greatest (signed rationals), its gamma (unsigned) and the base and alternate
/// offsets (signed): `OffsetSDR` and `OffsetHDR` for an SDR base.
extension GainMapMetadata {
    private static let threeChannels: UInt8 = 0x80
    private static let baseColourSpace: UInt8 = 0x40

    /// The gain map's payload after the signature.
    package var iso21496: [UInt8] {
        var bytes = UltraHDRJPEG.iso21496Version
        bytes.append((channels == 3 ? Self.threeChannels : 0) | Self.baseColourSpace)
        bytes += Self.rational(capacityMinimum) + Self.rational(capacityMaximum)
        for channel in 0..<channels {
            bytes += Self.rational(minimum[channel]) + Self.rational(maximum[channel])
            bytes += Self.rational(gamma[channel]) + Self.rational(offsetSDR[channel])
            bytes += Self.rational(offsetHDR[channel])
        }
        return bytes
    }

    /// The metadata of an ISO 21496-1 payload (after the signature); nil for a version this
    /// reads not, a payload cut short, a zero denominator, a base picture that is the HDR one
    /// (its headroom not below the alternate's), or values out of range.
    package init?(iso21496 payload: [UInt8]) {
        let bytes = BoundedBytes(payload)
        // The rationals follow the versions and the flags, eight bytes each.
        func rational(_ index: Int, signed: Bool) -> Double? {
            guard let numerator = bytes.uint32(at: 5 + 8 * index), let denominator = bytes.uint32(at: 9 + 8 * index),
                denominator != 0
            else { return nil }
            return (signed ? Double(Int32(bitPattern: numerator)) : Double(numerator)) / Double(denominator)
        }
        guard bytes.uint16(at: 0) == 0, bytes.uint16(at: 2) != nil, let flags = bytes.slice(at: 4, count: 1)?.first,
            let baseHeadroom = rational(0, signed: false), let alternateHeadroom = rational(1, signed: false)
        else { return nil }
        var lists: [[Double]] = Array(repeating: [], count: 5)
        for channel in 0..<(flags & Self.threeChannels != 0 ? 3 : 1) {
            for (list, signed) in zip(lists.indices, [true, true, false, true, true]) {
                guard let value = rational(2 + 5 * channel + list, signed: signed) else { return nil }
                lists[list].append(value)
            }
        }
        self.init(
            minimum: lists[0], maximum: lists[1], gamma: lists[2], offsetSDR: lists[3], offsetHDR: lists[4],
            capacityMinimum: baseHeadroom, capacityMaximum: alternateHeadroom)
        guard isInRange else { return nil }
    }

    /// `value` as a rational of 32-bit numerator (two's complement) and denominator: over 2^20,
    /// fine enough for any stop count, or a coarser power of two where that would not fit.
    private static func rational(_ value: Double) -> [UInt8] {
        var denominator: UInt32 = 1 << 20
        while denominator > 1, abs(value * Double(denominator)) >= Double(Int32.max) { denominator >>= 1 }
        let numerator = Int32(clamping: Int64((value * Double(denominator)).rounded()))
        return bigEndian(UInt32(bitPattern: numerator)) + bigEndian(denominator)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
