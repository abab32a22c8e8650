import { describe, expect, it } from 'vitest';
import { createMediaTypeReader, fillMediaType, getMediaTypeTemplateProblem, parseMediaTypeTemplate } from '../../src/model/model-media-type.js';

// versioning.placement.media_type is a template: the media type with {version} where the version goes.

describe('a media type template', () => {
  it('is usable with {version} once, in the subtype or a parameter value, as a JSON type', () => {
    for (const t of [
      'application/vnd.garden.v{version}+json',
      'application/json; version={version}',
      'application/vnd.x+json;v="{version}"',
      'application/json; charset=utf-8; v={version}',
    ]) {
      expect(getMediaTypeTemplateProblem(t)).toBeUndefined();
    }
  });

  it('is refused without {version}, with two, outside a subtype or value, malformed, or not JSON', () => {
    expect(getMediaTypeTemplateProblem('application/vnd.garden+json')).toMatch(/does not contain/);
    expect(getMediaTypeTemplateProblem('application/vnd.v{version}+json; v={version}')).toMatch(/more than once/);
    expect(getMediaTypeTemplateProblem('app{version}/json')).toMatch(/in the type/);
    expect(getMediaTypeTemplateProblem('application/json; v{version}=1')).toMatch(/parameter's name/);
    expect(getMediaTypeTemplateProblem('vnd.garden.v{version}+json')).toMatch(/is not a media type/);
    expect(getMediaTypeTemplateProblem('application/json; v; w={version}')).toMatch(/is not a media type/);
    expect(getMediaTypeTemplateProblem('application/json; v="a b {version}"')).toMatch(/not a plain token/);
    expect(getMediaTypeTemplateProblem('text/vnd.garden.v{version}')).toMatch(/not a JSON media type/);
    expect(getMediaTypeTemplateProblem('application/vnd.garden.v{version}+xml')).toMatch(/not a JSON media type/);
  });

  it('is filled with a version', () => {
    expect(fillMediaType('application/vnd.garden.v{version}+json', '2')).toBe('application/vnd.garden.v2+json');
  });

  it('reads the version from Accept ranges and a Content-Type', () => {
    const read = createMediaTypeReader(parseMediaTypeTemplate('application/vnd.garden.v{version}+json')!);
    expect(read('application/vnd.garden.v2+json')).toBe('2');
    expect(read('text/html, application/VND.garden.v2024-01-01+json; q=0.5')).toBe('2024-01-01');
    expect(read('application/vnd.garden.v2+json; charset=utf-8')).toBe('2');
    expect(read('application/vnd.garden.v2+json;q=0, application/vnd.garden.v3+json')).toBe('3');
    expect(read('application/json, */*')).toBeUndefined();
    expect(read('application/vnd.garden.v+json')).toBeUndefined();
    expect(read(undefined)).toBeUndefined();
    const param = createMediaTypeReader(parseMediaTypeTemplate('application/json; v={version}')!);
    expect(param('application/json; charset=utf-8; V="1.2.0"')).toBe('1.2.0');
    expect(param('application/json')).toBeUndefined();
    expect(param('application/problem+json; v=1')).toBeUndefined();
    expect(param('application/json; w=1, application/json; v=2')).toBe('2');
  });

  it('is undefined when unusable', () => {
    expect(parseMediaTypeTemplate('application/json')).toBeUndefined();
  });
});
