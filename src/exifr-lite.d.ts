// exifr's lite build (JPEG and HEIC readers, TIFF/EXIF; about a third of the full one) has the full
// build's API; the package types only its main entry. Loaded lazily (src/pages/chat/attachments/exif-preview.ts).
declare module 'exifr/dist/lite.esm.mjs' {
  import exifr from 'exifr';
  export default exifr;
}
