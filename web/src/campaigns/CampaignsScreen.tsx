import { Route, Routes } from 'react-router-dom';
import { CampaignList } from './CampaignList';
import { CampaignNew } from './CampaignNew';
import { CampaignPage } from './CampaignPage';

/** Built-in email marketing: the campaigns with their statistics, a new one, one campaign. */
export function CampaignsScreen() {
  return (
    <Routes>
      <Route index element={<CampaignList />} />
      <Route path="new" element={<CampaignNew />} />
      <Route path=":id" element={<CampaignPage />} />
    </Routes>
  );
}
