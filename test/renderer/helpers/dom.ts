// Imported first by every renderer test: a DOM (happy-dom) must exist before React DOM loads.
import { GlobalRegistrator } from '@happy-dom/global-registrator';

if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: 'http://127.0.0.1:4000/t/abcdefghijklmnop1234/' });
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
